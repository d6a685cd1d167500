; --ignore-case: symbols spelled in another case than their definition are the same symbol
; (Daryl Rictor's Microchess source calls POUT as 'pout'); the symbol file keeps the spelling
; of the definition.
; cpu: 6502
; option: ignore-case
; bytes: 20 06 10 4C 06 10 60
; symbol: POUT $1006
        *= $1000
        jsr pout
        JMP Pout
POUT    rts
