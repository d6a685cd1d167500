; 6502 values out of range.
; cpu: 6502
; error 9:13: value 256 does not fit in a byte (-128..255)
; error 10:13: zero-page address 4660 out of range (0..255)
; error 11:13: STX has zp,Y but no abs,Y, and 4660 is not a zero-page address
; error 12:13: address 65536 out of range (0..$FFFF)
; error 13:13: 4660 is not a zero-page address (0..255)
        lda #$10
        lda #256
        lda ($1234),y
        stx $1234,y
        lda $10000
        lda z:$1234
