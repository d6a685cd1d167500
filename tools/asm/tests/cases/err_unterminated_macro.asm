; A MACRO that never ends.
; cpu: 6502
; error 5:9: MACRO 'twice' without ENDM
        nop
twice   macro
        nop
        nop
