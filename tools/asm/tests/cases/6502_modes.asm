; Every 6502 addressing mode, in MOS syntax.
; cpu: 6502
; origin: $0200
; bytes: EA 0A 0A A9 10 A5 10 B5 10 B6 10 AD 34 12 BD 34 12 B9 34 12 6C 34 12 A1 10 B1 10 D0 E3
        .org $0200
start:  nop
        asl a
        asl
        lda #$10
        lda $10
        lda $10,x
        ldx $10,y
        lda $1234
        lda $1234,x
        lda $1234,y
        jmp ($1234)
        lda ($10,x)
        lda ($10),y
        bne start
; listing: B1 10           5/6
; listing: D0 E3         2/3/4
