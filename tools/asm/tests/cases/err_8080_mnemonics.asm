; 8080 and TDL mnemonics in a Z80 source get a note with the Zilog spelling; TDL's
; directives are named.
; cpu: z80
; error 11:9: unknown mnemonic 'MVI'
; note: 'MVI' is an Intel 8080 (or TDL) mnemonic; Kempelen takes Zilog mnemonics: write LD r,n
; error 12:9: unknown mnemonic 'LDA'
; note: write LD A,(nn)
; error 13:9: unknown mnemonic 'JRNZ'
; note: write JR NZ,e
; error 14:9: unknown directive '.LOC'
        MVI A,5
        LDA 1234h
        JRNZ 0
        .LOC 100h
