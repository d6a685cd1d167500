; Two ORG areas that overlap, and code past the end of memory.
; cpu: z80
; error 8:9: overwrites $1001, which an earlier line already filled
; error 10:9: code runs past the end of memory ($FFFF)
        org $1000
        db 1,2,3
        org $1001
        nop
        org $FFFF
        ld hl,0
