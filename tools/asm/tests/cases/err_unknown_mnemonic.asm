; An unknown mnemonic, with the closest known one.
; cpu: 6502
; error 6:9: unknown mnemonic 'ldaa'
; note: did you mean 'LDA'?
        lda #1
        ldaa #1
