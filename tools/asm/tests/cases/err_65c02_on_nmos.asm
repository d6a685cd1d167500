; A 65C02 instruction or mode in an NMOS source says which CPU has it.
; cpu: 6502
; error 9:9: unknown mnemonic 'phy'
; note: 'PHY' is a 65C02 instruction; the NMOS 6502 does not have it
; error 10:13: invalid operand for LDA
; note: accepted forms: LDA (zp,X)
; error 11:9: unknown mnemonic 'bbr0'
; note: 'BBR0' is a 65C02 instruction; the NMOS 6502 does not have it
        phy
        lda ($10)
        bbr0 $10,*
