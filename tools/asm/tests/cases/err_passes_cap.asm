; A value that depends on an instruction's size, which depends on the value, never settles.
; cpu: 6502
; error 7:1: did not settle after 32 passes
; note: zero page or not
        .org $00FD
        lda v
here:
v = $1FF - here
