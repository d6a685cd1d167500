; Labels with and without colon (also a mnemonic name in column 1 before an instruction), EQU in both spellings, ORG, forward references.
; cpu: z80
; origin: $8000
; bytes: 3E 2A 21 0B 80 CD 0B 80 C3 00 80 C9
; symbol: start $8000
; symbol: sub $800B
; symbol: answer $002A
answer: equ 42
        org $8000
start:  ld a,answer
        ld hl,sub
        call sub
        jp start
sub     ret
