; The second definition of a symbol is an error that says where the first one is.
; cpu: z80
; note: first defined at
; error 8:1: duplicate symbol 'twice'
; error 9:1: duplicate symbol 'size'
twice:  nop
size    equ 4
twice:  nop
size    equ 5
