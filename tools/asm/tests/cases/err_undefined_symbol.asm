; Undefined symbols, with a near name when there is one, and undefined local labels.
; cpu: z80
; error 9:14: undefined symbol 'strat'
; note: did you mean 'start'?
; error 10:15: undefined symbol 'nowhere'
; error 11:12: undefined local label '@loop' (after 'start')
; error 12:14: invalid operand for LD: 'bc' is a register
start:  nop
        call strat
        ld hl,nowhere+1
        jr @loop
        ld a,(bc*2)
