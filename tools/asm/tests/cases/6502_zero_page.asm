; Zero page is chosen when the address fits, also for symbols defined further down;
; a: forces absolute, z: zero page.
; cpu: 6502
; origin: $0300
; bytes: A5 80 B5 81 AD 00 04 AD 80 00 A5 10 85 80 60
        .org $0300
        lda ptr
        lda ptr+1,x
        lda far
        lda a:ptr
        lda z:$10
        sta ptr
        rts
ptr = $80
far = $0400
