# asm/davidad.s: seed 002, davidad's xmm state machine ("Overkilling the
# 8-queens problem", 2014), by hand, with its backtracking stack moved from
# rsp into a caller-owned struct so that a call can stop when its output is
# full and a later call can continue exactly there.
#
# Pulled into the crate by src/kernel/asm.rs with
# global_asm!(include_str!("../../asm/davidad.s")), Intel syntax. The Rust
# side declares, with the System V AMD64 ABI spelled out:
#
#     unsafe extern "sysv64" fn queens_simd_v0_1_davidad_sse41(
#         machine: *mut Machine, out: *mut RowMasks, capacity: usize) -> usize;
#     unsafe extern "sysv64" fn queens_simd_v0_1_davidad_avx(
#         machine: *mut Machine, out: *mut RowMasks, capacity: usize) -> usize;
#
# Both run the machine from where `machine` says it stopped, and return the
# number of solutions found by this call:
#   * out == null: count only; runs until the search is finished.
#   * out != null: writes one RowMasks (32 bytes: [u16; 16], row r's queen
#     as the bit of its column) per solution, and returns as soon as
#     `capacity` (at least 1) have been written, or the search is finished.
#     The search is finished when the machine is left with depth 0 and no
#     free square (Machine::is_finished).
#
# struct Machine (repr(C), 296 bytes), built by Machine::new in Rust:
#   frames[16]  at   0: one per row above the current one, 16 bytes each:
#                       +0 free: that row's squares not yet tried
#                       +8 state: that row's state before its queen
#   free        at 256: the current row's squares not yet tried
#   state       at 264: the current row's state (words 0-2, see below)
#   depth       at 272: the current row, 0 to last
#   last        at 280: N - 1
#   columns     at 288: (1 << N) - 1, N from 1 to 16
#
# The state, as in the article: three 16-bit words in the low quadword of
# xmm1, bit c of each word standing for column c of the current row:
#   word 0: columns taken by the queens above (stays put row to row)
#   word 1: diagonals running down-right (move one column right per row)
#   word 2: diagonals running down-left (move one column left per row)
#
# Where this departs from the article, and why:
#   * The stack lives in Machine.frames, indexed by r9, not on rsp: that is
#     what lets a call stop with its output full and a later call go on.
#   * The bit scan is tzcnt, not bsf, and the tried square is cleared with
#     lea + and, not btc. The article's two instructions made the loop
#     over twice as slow at N = 8, where it is bound by instruction
#     throughput (criterion, count); at N = 12, bound by mispredicted
#     branches, the two were equal. tzcnt is encoded rep bsf,
#     which a CPU without BMI1 runs as bsf: the same result for the
#     non-zero value it is given, since the zero test comes first.
#   * The attacks on the next row are gathered from the shifted copies
#     instead of the blended state (see the row step below).
#   * Solutions are counted, or recorded for the caller, not printed.
#
# ABI and hygiene: arguments in rdi, rsi, rdx, result in rax. Uses rax, rcx,
# rdx, rsi, rdi, r8-r11 and xmm1-xmm5, xmm7, which the caller saves, and
# rbx, which it preserves with one push and pop: the only use of rsp, so
# there is no red zone, no frame and no alignment assumption (every memory
# access is an 8- or 2-byte scalar one, movq, mov or movzx). The AVX
# encoding writes only VEX.128 forms, which leave the upper ymm halves
# clean, so it needs no vzeroupper. Labels are local (.L, made unique per
# expansion with \@); the macros are purged at the end, so two copies of
# this file in one module (two semver-incompatible copies of the crate
# under fat LTO) assemble side by side, and the global symbols carry the
# crate's version (v0_1 for 0.1.x) so that they cannot clash either.
# ELF only (.type, .size): src/kernel/asm.rs compiles it for x86-64 Linux.
#
# Registers inside the machine (the article's in parentheses):
#   rdi   the Machine; frames[0] at [rdi]: backtracking from row 0 there
#         ends the search (r13)
#   r9    the next frame to push: rdi + 16 * depth (rsp)
#   r10   the last row's frame: rdi + 16 * last; a queen placed while
#         r9 == r10 completes a solution (r14)
#   r8    the current row's squares not yet tried (rdx)
#   rcx   the column being tried (rcx)
#   rbx   0x0001_0001_0001: a queen in column 0, one bit in each word (r15)
#   rdx   scratch: the queen being placed, a row's mask when recording
#   rax   solutions found by this call (rax)
#   rsi   where the next RowMasks goes, or null to count only
#   r11   room left in out, in RowMasks
#   xmm1  the current row's state (xmm1)
#   xmm7  the board's columns in word 0, zero above (xmm7)
#   xmm2-xmm5  scratch for the row step

# Offsets into Machine (.L symbols: assembler-local, never exported).
.set .Lframe_size, 16
.set .Lframe_state, 8
.set .Lmachine_free, 256
.set .Lmachine_state, 264
.set .Lmachine_depth, 272
.set .Lmachine_last, 280
.set .Lmachine_columns, 288
# One solution record: 16 rows of 16-bit masks.
.set .Lrecord_size, 32

# The row step, written once per encoding; everything else is shared.
# In: xmm1 = the state of the row being filled, xmm2 = the queen placed in
# it (its column bit in words 0-2). Out: xmm1 = the next row's state, r8 =
# the next row's free squares. Clobbers xmm2-xmm5.
#
# The article's instructions, with one change of dataflow: it blends the
# shifted words into the state first and then byte-shifts the blended state
# to gather the attacks; here the attacks are gathered from the shifted
# copies directly (the same words: word 2 of the left-shifted copy, word 1
# of the right-shifted one, word 0 of the state), so the two pblendw, which
# only the next row's state needs, are off the path from one queen to the
# next free squares.

# Legacy SSE: two-operand forms, so a register is copied (movdqa) before
# each shift that must keep its source. pblendw is SSE4.1; the rest SSE2.
.macro queens_simd_v0_1_row_step_sse41
    por      xmm1, xmm2            # xmm1 = state + queen: its column in word 0, its diagonals in words 1, 2
    movdqa   xmm2, xmm1            # xmm2 = copy of it, to shift left
    psllw    xmm2, 1               # xmm2 = every word moved one column left
    movdqa   xmm3, xmm1            # xmm3 = copy, to shift right
    psrlw    xmm3, 1               # xmm3 = every word moved one column right
    movdqa   xmm4, xmm1            # xmm4 = copy, for the columns taken (word 0)
    pblendw  xmm1, xmm2, 0x4       # xmm1 word 2 = moved left
    pblendw  xmm1, xmm3, 0x2       # xmm1 word 1 = moved right; word 0 kept: the next row's state
    psrldq   xmm2, 4               # xmm2 word 0 = moved-left word 2: down-left diagonals in the next row
    psrldq   xmm3, 2               # xmm3 word 0 = moved-right word 1: down-right diagonals in the next row
    por      xmm4, xmm2            # xmm4 word 0 = columns and down-left diagonals
    por      xmm4, xmm3            # xmm4 word 0 = every square attacked in the next row
    pandn    xmm4, xmm7            # xmm4 = not attacked and on the board (xmm7 is zero above word 0)
    movq     r8, xmm4              # r8 = the next row's free squares
.endm

# AVX: VEX three-operand forms write a new register, so no copies.
.macro queens_simd_v0_1_row_step_avx
    vpor     xmm1, xmm1, xmm2      # xmm1 = state + queen: its column in word 0, its diagonals in words 1, 2
    vpsllw   xmm2, xmm1, 1         # xmm2 = every word moved one column left
    vpsrlw   xmm3, xmm1, 1         # xmm3 = every word moved one column right
    vpsrldq  xmm4, xmm2, 4         # xmm4 word 0 = moved-left word 2: down-left diagonals in the next row
    vpsrldq  xmm5, xmm3, 2         # xmm5 word 0 = moved-right word 1: down-right diagonals in the next row
    vpor     xmm4, xmm4, xmm1      # xmm4 word 0 = and the columns taken
    vpor     xmm4, xmm4, xmm5      # xmm4 word 0 = every square attacked in the next row
    vpandn   xmm4, xmm4, xmm7      # xmm4 = not attacked and on the board (xmm7 is zero above word 0)
    vmovq    r8, xmm4              # r8 = the next row's free squares
    vpblendw xmm1, xmm1, xmm2, 0x4 # xmm1 word 2 = moved left
    vpblendw xmm1, xmm1, xmm3, 0x2 # xmm1 word 1 = moved right; word 0 kept: the next row's state
.endm

# The whole function, for one encoding: `name` is its symbol, `v` the
# prefix of its scalar-vector moves ("" for SSE, "v" for VEX), `row_step`
# its row-step macro.
.macro queens_simd_v0_1_davidad name, v, row_step
    .p2align 4
    .globl   \name
    .type    \name, @function
\name:
    .cfi_startproc
    push     rbx                                   # save the caller's rbx (callee-saved)
    .cfi_adjust_cfa_offset 8
    .cfi_offset rbx, -16
    mov      rbx, 0x000100010001                   # rbx = a queen in column 0, in words 0-2
    \v\()movq xmm7, qword ptr [rdi + .Lmachine_columns] # xmm7 = the board's columns in word 0
    \v\()movq xmm1, qword ptr [rdi + .Lmachine_state]   # xmm1 = the current row's state
    mov      r8, qword ptr [rdi + .Lmachine_free]  # r8 = its squares not yet tried
    mov      r9, qword ptr [rdi + .Lmachine_depth] # r9 = depth
    shl      r9, 4                                 # r9 = 16 * depth
    add      r9, rdi                               # r9 = &frames[depth]: the next frame to push
    mov      r10, qword ptr [rdi + .Lmachine_last] # r10 = last
    shl      r10, 4                                # r10 = 16 * last
    add      r10, rdi                              # r10 = &frames[last]
    mov      r11, rdx                              # r11 = room in out
    xor      eax, eax                              # rax = 0 solutions found so far

# The machine's loop: r8 = the current row's squares not yet tried.
.Lnext_square\@:
    test     r8, r8                                # any left?
    jz       .Lbacktrack\@                         # none: this row is done
.Ltry\@:                                           # r8 = the current row's squares not yet tried, not 0
    tzcnt    rcx, r8                               # rcx = the lowest of them (article: bsf)
    lea      rdx, [r8 - 1]                         # rdx = r8 with its lowest bit cleared and those below set
    and      r8, rdx                               # r8 = the rest: column rcx is now tried (article: btc)
    cmp      r9, r10                               # is this the last row?
    je       .Lsolution\@                          # then the queen in column rcx completes a board
    mov      qword ptr [r9], r8                    # push the row: its squares not yet tried...
    \v\()movq qword ptr [r9 + .Lframe_state], xmm1 # ...and its state before this queen
    add      r9, .Lframe_size                      # r9 = the next row's frame
    mov      rdx, rbx                              # rdx = a queen in column 0
    shl      rdx, cl                               # rdx = the queen in column rcx, in words 0-2
    \v\()movq xmm2, rdx                            # xmm2 = the queen, for the row step
    \row_step                                      # xmm1 = the next row's state, r8 = its free squares
    test     r8, r8                                # any?
    jnz      .Ltry\@                               # try them; none: fall through and backtrack

# The current row has no square left: return to the row above.
.Lbacktrack\@:
    cmp      r9, rdi                               # is this row 0?
    je       .Lstop\@                              # then the search is finished (depth 0, r8 = 0)
    sub      r9, .Lframe_size                      # pop the row above: r9 = its frame
    mov      r8, qword ptr [r9]                    # r8 = its squares not yet tried
    \v\()movq xmm1, qword ptr [r9 + .Lframe_state] # xmm1 = its state
    jmp      .Lnext_square\@                       # try its next square

# A solution: rcx = the last row's queen; the rows above are in frames.
.Lsolution\@:
    inc      rax                                   # one more solution
    test     rsi, rsi                              # counting only?
    jz       .Lnext_square\@                       # then nothing to write: the row's next square
    \v\()movq qword ptr [r9 + .Lframe_state], xmm1 # frames[last].state = the last row's state (that frame is otherwise unused)
    mov      edx, 1                                # edx = a queen in column 0
    shl      edx, cl                               # edx = the last row's queen as its column bit
    mov      rcx, r9                               # rcx = &frames[last]
    sub      rcx, rdi                              # rcx = 16 * last
    shr      rcx, 3                                # rcx = 2 * last: the last row's offset in the record
    mov      word ptr [rsi + rcx], dx              # record[last] = its queen
    test     rcx, rcx                              # was that row 0 (N = 1)?
    jz       .Lrecorded\@                          # then the record is complete
.Lrecord_row\@:                                    # rcx = 2 * (the row below the one to record)
    sub      rcx, 2                                # rcx = 2 * row, for row = last - 1 down to 0
    movzx    edx, word ptr [rdi + 8 * rcx + .Lframe_size + .Lframe_state] # edx = columns taken above the row below
    xor      dx, word ptr [rdi + 8 * rcx + .Lframe_state] # dx = minus those above this row: this row's queen
    mov      word ptr [rsi + rcx], dx              # record[row] = its queen
    test     rcx, rcx                              # was that row 0?
    jnz      .Lrecord_row\@                        # no: record the row above
.Lrecorded\@:
    add      rsi, .Lrecord_size                    # rsi = where the next record goes
    dec      r11                                   # one record less room
    jnz      .Lnext_square\@                       # room left: the row's next square
                                                   # out is full: stop here, to continue later

# Save where the machine stands and return. Also reached when the search is
# finished, which leaves depth 0 and no free square.
.Lstop\@:
    mov      qword ptr [rdi + .Lmachine_free], r8  # the current row's squares not yet tried
    \v\()movq qword ptr [rdi + .Lmachine_state], xmm1 # its state
    sub      r9, rdi                               # r9 = 16 * depth
    shr      r9, 4                                 # r9 = depth
    mov      qword ptr [rdi + .Lmachine_depth], r9 # the current row
    pop      rbx                                   # restore the caller's rbx
    .cfi_adjust_cfa_offset -8
    .cfi_restore rbx
    ret                                            # rax = solutions found by this call
    .cfi_endproc
    .size    \name, . - \name
.endm

    .pushsection .text.queens_simd_v0_1_davidad, "ax", @progbits
queens_simd_v0_1_davidad queens_simd_v0_1_davidad_sse41, , queens_simd_v0_1_row_step_sse41
queens_simd_v0_1_davidad queens_simd_v0_1_davidad_avx, v, queens_simd_v0_1_row_step_avx
    .popsection

.purgem queens_simd_v0_1_davidad
.purgem queens_simd_v0_1_row_step_sse41
.purgem queens_simd_v0_1_row_step_avx
