; Bit branches take a zero-page address and a branch target within reach; the NMOS 6502
; has none of the W65C02S's additions.
; cpu: 65c02
; error 11:14: zero-page address 4660 out of range (0..255)
; error 12:14: invalid operand for BBR0: it takes a zero-page address and a branch target
; note: accepted forms: BBR0 zp,rel
; error 13:18: branch out of range
; error 14:14: invalid operand for RMB1: no immediate mode
; error 15:14: invalid operand for BBS3: 'x' is a register
        .org $0200
here:   bbr0 $1234,here
        bbr0 $12
        bbs1 $12,far
        rmb1 #1
        bbs3 $12,x
        .res 200
far:    stp
