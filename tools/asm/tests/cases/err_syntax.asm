; Syntax errors say what was expected where.
; cpu: z80
; error 9:18: expected an operand after the operator
; error 10:12: unterminated string
; error 11:18: expected ')'
; error 12:14: invalid number '12ab'
; error 13:9: expected a label, mnemonic or directive, found '?'
; error 14:16: unexpected '2' in expression
        ld hl,1 +
        db "abc
        ld a,(1+2
        ld a,12ab
        ?
        ld a,1 2
