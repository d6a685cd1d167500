; The W65C02S's bit instructions (Rockwell's RMB, SMB, BBR, BBS) and WDC's WAI and STP
; (--cpu 65c02); the bytes agree with ca65 --cpu 65c02 and acme --cpu w65c02
; (tools/asm/tests/differential.rs assembles every form). A bit branch is written
; 'BBRn zp,target': the zero-page byte to test, then the branch target, which may lie
; before or after it; its offset counts from the next instruction, 3 bytes on.
; cpu: 65c02
; origin: $0200
; bytes: 07 12 F7 12 37 FF C7 00
; bytes: 0F 12 FD FF 12 F2 5F FF 03 AF 00 00
; bytes: CB DB
; symbol: wait $0208
; listing: 0F 12 FD  5/6/7
; listing: 37 FF  5
; listing: DB  3
        .org $0200
ZP = $12
top:    rmb0 ZP
        smb7 ZP
        rmb3 $FF
        smb4 $00
wait:   bbr0 ZP,wait
        bbs7 ZP,top
        bbr5 $FF,ahead
        bbs2 $00,ahead
ahead:  wai
        stp
