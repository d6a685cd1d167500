; With --ignore-case, two spellings of one name are a duplicate; without it they are two
; symbols.
; cpu: z80
; option: ignore-case
; error 9:1: duplicate symbol 'Loop'
; note: with --ignore-case, 'loop' and 'Loop' are one symbol
        org 0
loop:   nop
Loop:   nop
