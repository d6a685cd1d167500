; A 65C02 instruction or mode in an NMOS source says which CPU has it.
; cpu: 6502
; error 7:9: unknown mnemonic 'phy'
; note: 'PHY' is a 65C02 instruction; the NMOS 6502 does not have it
; error 8:13: invalid operand for LDA
; note: accepted forms: LDA (zp,X)
        phy
        lda ($10)
