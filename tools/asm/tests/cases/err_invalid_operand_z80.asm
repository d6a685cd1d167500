; Invalid operands, with the accepted forms.
; cpu: z80
; error 8:14: invalid operand for LD: 'bc' is a register
; note: accepted forms: LD A,(BC), LD A,(DE), LD A,(nn), LD A,n, LD A,r, LD A,(HL), LD A,I
; error 9:12: invalid operand for EX
; note: EX AF,AF'
; error 10:13: invalid operand for NOP: it takes no operands
        ld a,(bc+1)
        ex af,bc
        nop a
