; Invalid 6502 addressing modes, with the accepted forms.
; cpu: 6502
; error 9:13: invalid operand for JMP: no immediate mode
; note: accepted forms: JMP abs, JMP (abs)
; error 10:13: invalid operand for STA: no immediate mode
; error 11:13: invalid operand for LDA: '(zp)' without an index is a 65C02 mode
; error 12:13: '(zp),X' does not exist
; error 13:13: invalid operand for INX: it takes no operands
        jmp #$10
        sta #1
        lda ($10)
        lda ($10),x
        inx $10
