; Every number notation and character literals.
; cpu: z80
; bytes: 3E FF 3E FF 3E FF 3E FF 3E 0A 3E 0A 3E 41 3E 61 3E 0C 21 34 12
        ld a,255
        ld a,$FF
        ld a,0FFh
        ld a,0xff
        ld a,%1010
        ld a,1010b
        ld a,'A'
        ld a,"a"
        ld a,12
        ld hl,1234h
