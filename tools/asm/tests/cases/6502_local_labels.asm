; cpu: 6502
; bytes: A0 00 88 D0 FD A0 01 88 D0 FD 60
; symbol: one@loop $0002
one:    ldy #0
@loop:  dey
        bne @loop
two:    ldy #1
@loop:  dey
        bne @loop
        rts
