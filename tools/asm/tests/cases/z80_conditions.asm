; Conditional jumps, calls and returns; C is both a register and a condition.
; cpu: z80
; origin: $0100
; bytes: 20 FE 38 FC DA 00 01 DC 00 01 D8 F0 E2 00 01 10 EF 48 C9
        org $0100
top:    jr nz,top
        jr c,top
        jp c,top
        call c,top
        ret c
        ret p
        jp po,top
        djnz top
        ld c,b
        ret
; listing: 20 FE          7/12
; listing: D8            5/11
