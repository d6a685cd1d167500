; --paren-closes-bracket: the two ')' the text of the Sargon book has where a ']' belongs
; (a parameter list, a macro body) close their '[', and the macros work.
; cpu: z80
; option: dialect tdl
; option: paren-closes-bracket
        .LOC    100H
        .DEFINE PRTLIN[NAME,LNGTH)=
        [RST    7
        .BYTE   0B2H,1AH
        .WORD   NAME,LNGTH]
        .DEFINE EXIT=
        [RST    7
        .BYTE   01FH)
MSG:    PRTLIN  MSG,5
        EXIT
; bytes: FF B2 1A 00 01 05 00 FF 1F
