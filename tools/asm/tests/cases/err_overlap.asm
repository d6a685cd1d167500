; Two ORG areas that overlap (the error names the earlier line), and code past the end of memory.
; cpu: z80
; error 10:9: overwrites $1001, which
; note: err_overlap.asm:8: the earlier line that filled $1001
; note: with --overlap later-wins the later bytes win
; error 12:9: code runs past the end of memory ($FFFF)
        org $1000
        db 1,2,3
        org $1001
        nop
        org $FFFF
        ld hl,0
