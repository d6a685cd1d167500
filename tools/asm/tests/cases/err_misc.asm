; Division by zero, a register as a label, ERROR directive, EQU without label, ORG range.
; cpu: z80
; error 9:15: division by zero
; error 10:1: 'hl' is a register or condition name and cannot be a symbol
; error 11:9: table too big
; error 12:9: EQU needs a label
; error 13:13: address 65536 out of range (0..$FFFF)
; error 14:13: RST 9 is not a restart address
        ld a,1/0
hl:     nop
        error "table too big"
        equ 5
        org $10000
        rst 9
