; DB/DEFB/DEFM with strings, DW/DEFW, DS/DEFS with a fill byte, ALIGN.
; cpu: z80
; origin: $0010
; bytes: 48 49 00 27 41 42 80 FF 34 12 FF FF 00 00 E5 E5 E5 00 00 00 00 00 00 00
; bytes: 01
        org $10
        db "HI",0,"'"
        defm 'AB'
        defb -128,255
        dw $1234
        defw -1
        ds 2
        defs 3,$E5
        align 8
        db 1
