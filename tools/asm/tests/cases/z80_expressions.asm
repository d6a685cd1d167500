; Precedence, parentheses, byte selection with < > and LOW()/HIGH(), the current address.
; cpu: z80
; origin: $1000
; bytes: 3E 0E 3E 14 3E 34 3E 12 3E 34 3E 12 21 0E 10 3E 01 3E FE 3E 11 3E 02
value   equ $1234
        org $1000
        ld a,2+3*4
        ld a,(2+3)*4
        ld a,<value
        ld a,>value
        ld a,low(value)
        ld a,high(value)+0
        ld hl,$+2
        ld a,7/4
        ld a,~1&$FF
        ld a,1<<4|1
        ld a,10%4
