; TDL's .DEFINE as the text of the Sargon book has it typed: a ')' where a ']' belongs
; closes a parameter list and a body (the diagnostic names the '[' it was meant to close),
; and .DEFINE lines that are malformed otherwise.
; cpu: z80
; option: dialect tdl
        .DEFINE PRT[NAME,LEN)=
        [RST    7
        .WORD   NAME,LEN]
        .DEFINE QUIT=
        [RST    7
        .BYTE   01FH)
        .DEFINE NOEQ[A]
        .DEFINE NOBRACKET=
        RST     7
LBL:    .DEFINE NAMED=[NOP]
        .DEFINE AFTER=[NOP] NOP
        .DEFINE TWICE=[NOP]
        .DEFINE TWICE=[NOP]
        .DEFINE MOV=[NOP]
        PRT     1,2
        QUIT
        .DEFINE OPEN=
        [NOP
; error 6:29: the parameter list of macro 'PRT' opened with '[' (column 20) ends with ')'
; note: with --paren-closes-bracket, a ')' that closes nothing in a .DEFINE closes its '['
; error 11:21: ')' closes nothing: the body of macro 'QUIT' (its '[' on line 10) is still open
; error 12:24: expected '=' after the name of macro 'NOEQ'
; error 14:9: expected '[' to open the body of macro 'NOBRACKET'
; error 15:1: a .DEFINE line takes no label
; error 16:29: text after the ']' that ends the body of macro 'AFTER'
; error 18:17: macro 'TWICE' is already defined
; error 19:17: 'MOV' is a mnemonic or directive and cannot name a macro
; error 23:9: the file ends inside the body of macro 'OPEN': its '[' has no ']'
