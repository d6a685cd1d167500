; Directives Kempelen refuses say so by name, never "is not a symbol name".
; cpu: 6502
; error 10:1: .SEGMENT is a ca65 linker segment
; error 11:1: unknown directive '.code'
; note: .CODE is another assembler's directive: a ca65 segment
; error 12:10: ca65 feature 'ubiquitous_idents' is not supported
; error 13:10: 'syskin' is imported from another module, but this program does not define it
; error 14:13: this source is written for the 65C02 (CPU 65c02), but it is assembled for the 6502
; note: assemble it with --cpu 65c02
.segment "CODE"
.code
.feature ubiquitous_idents
.import  syskin
        cpu 65c02
        *= $1000
        nop
