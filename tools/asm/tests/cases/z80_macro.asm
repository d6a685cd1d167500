; MACRO/ENDM with parameters; @labels inside a macro are local to each expansion.
; cpu: z80
; bytes: 3E 01 D3 01 3E 02 D3 01 06 04 10 FE 06 04 10 FE C9
; listing: 3E 01 7 ld a,1
putc    macro char
        ld a,char
        out (1),a
        endm
wait    macro count
        ld b,count
@w:     djnz @w
        endm
        putc 1
        putc 2
        wait 4
        wait 4
        ret
