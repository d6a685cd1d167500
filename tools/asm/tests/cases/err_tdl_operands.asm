; TDL operands that no TDL form takes, Zilog mnemonics in a TDL source, registers in
; expressions, TDL's pseudo-operations the dialect does not take, and a radix that does not
; exist.
; cpu: z80
; option: dialect tdl
        MOV     M,M
        LDAX    H
        DADX    H
        PUSH    SP
        RST     8
        MVI     A
        JMP
        MOV     A,B,C
        LD      A,B
        MVI     A,B+1
        .IFE    0
        .RADIX  7
        MOV     A,5(Z)
; error 6:17: invalid operand for MOV: no form takes (register, register)
; note: accepted forms: MOV r,s (r, s: B C D E H L A, M for (HL), d(X), d(Y))
; error 7:17: invalid operand for LDAX
; note: accepted forms: LDAX B, LDAX D
; error 8:17: invalid operand for DADX
; note: accepted forms: DADX rr (rr: B D X SP)
; error 9:17: invalid operand for PUSH
; note: accepted forms: PUSH qq (qq: B D H PSW X Y)
; error 10:17: TDL's RST takes the restart number 0-7
; error 11:17: invalid operand for MVI
; error 12:9: invalid operand for JMP: it needs operands
; error 13:17: 3 operands given, at most 2 allowed
; error 14:9: unknown mnemonic 'LD'
; note: 'LD' is a Zilog mnemonic; TDL's syntax (--dialect tdl) writes MOV, MVI, LXI
; error 15:19: 'B' is a register and cannot be part of an expression
; error 16:9: unknown directive '.IFE'
; note: .IFE is a TDL pseudo-operation that Kempelen's TDL dialect does not take
; error 17:17: radix '7' does not exist
; error 18:21: 'Z' is not an index register
