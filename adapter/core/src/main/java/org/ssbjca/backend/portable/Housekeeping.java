package org.ssbjca.backend.portable;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.ssbjca.api.MessageTypes;
import org.ssbjca.backend.Jdbc;

/**
 * What SQL Server's broker does in the background, done when a session of this JVM has looked at a queue (at most
 * once per interval per database): conversation timers that expired deliver DialogTimer; dialogs whose LIFETIME
 * expired get an Error message on both sides; scheduled sends that are due are sent ({@link ScheduledSends}); and, at
 * the first look after a start and then every {@value #REPAIR_MILLIS} ms, a repair pass ({@link #repairIfDue}) that
 * also puts the messages that waited in the transmission queue for a queue enabled again onto it
 * ({@link Transmissions}). A pass runs on a connection of its own and commits at once, so what it sends is visible
 * and wakes its readers at once, not when the transaction of the session that happened to look ends (an idle
 * reader's stays open for its whole WAITFOR). Rows another transaction holds are skipped and handled on a later pass.
 * The session that looks first asks, on its own connection and without locking, whether anything is due; only then
 * is the connection of the pass opened. A timer or lifetime therefore fires at most the fallback poll plus this
 * interval late while any session of the JVM waits on a queue of the database.
 *
 * <p>Scheduled sends are not left to the interval: this node keeps the earliest due time it knows of ({@link
 * #scheduled}: a send this node committed, or the next one a probe or a pass read), waiting sessions sleep no longer
 * than until then ({@link #millisUntilDue}), and the first look at or after it runs a pass however recently the last
 * one ran. A pass claims its rows with SKIP LOCKED, so a send is still sent by one pass of one node. Thread-safe.
 *
 * <p>A look that found nothing (its session is about to wait) does what is due; a look that found messages leaves it
 * to such a look unless a whole interval more has passed (a queue so busy that no look comes back empty), so that a
 * message found is not held back by the queries and the connection a pass needs.
 */
final class Housekeeping {

    private final PortableBroker broker;
    private final long intervalNanos;
    private final java.util.function.LongSupplier nanos;
    private final AtomicLong nextRun = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong nextRepair = new AtomicLong(Long.MIN_VALUE);
    /** The earliest due time of a scheduled send that this node knows of and no pass has handled; null: none. */
    private final AtomicReference<Instant> nextDue = new AtomicReference<>();
    private final java.util.concurrent.atomic.AtomicBoolean passing = new java.util.concurrent.atomic.AtomicBoolean();
    /**
     * The earliest time a look found something due while another pass of this node ran, and left it to that pass;
     * null: none. The running pass may have read what was due before that (a send committed after its read, or the
     * due time it noted itself and the look claimed), so it notes this time again when it ends ({@link #pass}).
     */
    private final AtomicReference<Instant> leftToPass = new AtomicReference<>();
    /** The scheduled sends this node's passes kept after a failure that passes. */
    private final SendRetries retries = new SendRetries();

    /**
     * How often parked groups with messages are looked for (PostgreSQL), the backstop of the post-commit check, and
     * the transmission queue's messages for queues enabled again (PostgreSQL and H2).
     */
    static final long REPAIR_MILLIS = 30_000;
    private static final org.ssbjca.support.AdapterLog LOG = org.ssbjca.support.AdapterLog.of(Housekeeping.class);

    /**
     * @param broker the broker
     * @param intervalMillis how often a pass runs at most
     * @param nanos the clock that tells when an interval has passed, as {@link System#nanoTime()}
     */
    Housekeeping(PortableBroker broker, long intervalMillis, java.util.function.LongSupplier nanos) {
        this.broker = broker;
        this.intervalNanos = intervalMillis * 1_000_000L;
        this.nanos = nanos;
    }

    /**
     * Runs what is due, after a session looked at a queue. When the look found messages a failure is logged
     * ({@code SSBJCA0120}), not thrown: the RECEIVE's messages reach its caller.
     *
     * @param looking the session
     * @param found whether its look found something: then only what is a whole interval overdue runs
     */
    void runIfDue(PortableSession looking, boolean found) {
        tolerated(found, () -> repairIfDue(found));
        boolean byInterval = claimRun(nextRun, intervalNanos, found);
        Instant claimed = byInterval ? null : claimDue(found);
        if (!byInterval && claimed == null) {
            return;
        }
        // asked in the looking session's transaction: a failure here is the caller's (on PostgreSQL it aborted that
        // transaction), thrown so that it rolls back; the due time this look took is then noted again, for the next
        Instant at = broker.now();
        Instant taken = claimed;
        try {
            Instant known = nextDue.getAndUpdate(due -> due != null && !at.isBefore(due) ? null : due);
            if (known != null && !at.isBefore(known)) { // this look handles it
                taken = earlier(taken, known);
            }
            Connection c = looking.connection();
            if (!Jdbc.exists(c, broker.sql().anyTimerDue, at) && !Jdbc.exists(c, broker.sql().anyLifetimeDue, at)) {
                Instant first = Jdbc.first(c, broker.sql().firstScheduledSendDue, rs -> Jdbc.instant(rs, "due_at"));
                if (first == null || first.isAfter(at)) {
                    scheduled(first);
                    return;
                }
            }
        } catch (SQLException e) {
            scheduled(taken);
            throw PortableSession.failure("looking for due conversation timers and lifetimes", e);
        }
        tolerated(found, () -> pass(at));
    }

    /**
     * Runs work on a connection of its own. When the look found messages its failure is logged, not thrown: the
     * messages are returned, not lost to it (a caller that caught it and committed would have committed their
     * delete), and the work runs again at a later look, an interval on.
     */
    private static void tolerated(boolean found, Runnable work) {
        try {
            work.run();
        } catch (RuntimeException e) {
            if (!found) {
                throw e;
            }
            LOG.housekeepingFailed(e, e.getMessage());
        }
    }

    /**
     * Fires the due timers and lifetimes on a connection of its own, committed at once; skipped while another pass of
     * this node runs, so that one node's passes never send on one conversation at once. What was due at {@code at} is
     * then left to the running pass, which notes {@code at} again when it ends: the next look runs a pass, rather
     * than the interval's next (a look that claimed the due time the running pass had noted, or a send committed after
     * it read the due ones, would otherwise wait for it).
     *
     * @param at when the caller found something due
     */
    private void pass(Instant at) {
        if (!passing.compareAndSet(false, true)) {
            leftToPass.accumulateAndGet(at, Housekeeping::earlier);
            if (!passing.get()) { // the running pass ended before it could see this: noted here
                scheduled(leftToPass.getAndSet(null));
            }
            return;
        }
        try (Connection own = broker.source().open()) {
            PortableSession.inOwnTransaction(broker, own, session -> {
                run(session);
                return null;
            });
        } catch (SQLException e) {
            throw PortableSession.failure("firing conversation timers and lifetimes", e);
        } finally {
            passing.set(false);
            scheduled(leftToPass.getAndSet(null));
        }
    }

    /**
     * Runs one pass now: timers, lifetimes, then the due scheduled sends ({@link ScheduledSends#sendDue}); notes when
     * the next is due, a send kept to be tried again included.
     */
    void run(PortableSession session) throws SQLException {
        PortableSql sql = broker.sql();
        Connection c = session.connection();
        Instant now = broker.now();
        List<UUID> timers = Jdbc.list(c, sql.dueTimers, rs -> Jdbc.uuid(rs, "conversation_handle"), now);
        for (UUID handle : timers) {
            Endpoint e = session.endpoint(handle);
            Jdbc.update(c, sql.clearTimer, handle);
            if (e != null && !e.hasEnded()) {
                session.messages().enqueueToSelf(e, MessageTypes.DIALOG_TIMER, null);
            }
        }
        List<UUID> expired = Jdbc.list(c, sql.dueLifetimes, rs -> Jdbc.uuid(rs, "conversation_handle"), now);
        for (UUID handle : expired) {
            Endpoint e = session.endpoint(handle);
            Jdbc.update(c, sql.expireEndpoint, handle);
            if (e != null && !e.hasEnded()) {
                session.messages().enqueueToSelf(e, MessageTypes.ERROR,
                        ErrorBody.of(ErrorBody.LIFETIME_EXPIRED, "The dialog has exceeded the specified LIFETIME."));
            }
        }
        ScheduledSends.sendDue(broker, session, retries);
        scheduled(Jdbc.first(c, sql.nextScheduledSendDue, rs -> Jdbc.instant(rs, "due_at"), now));
    }

    /**
     * Notes that a scheduled send is due at an instant (committed by this node, or read by a probe or a pass), or that
     * something found due then was left to a pass that has ended: the first look at or after it runs a pass. When it
     * is the earliest known, the waiting sessions are let re-check how long they sleep
     * ({@link org.ssbjca.backend.QueueSignals#releaseAll}), without a look.
     *
     * @param due the due time; null notes nothing
     */
    void scheduled(Instant due) {
        if (due == null) {
            return;
        }
        Instant before = nextDue.getAndAccumulate(due, Housekeeping::earlier);
        if (before == null || due.isBefore(before)) {
            broker.signals().releaseAll();
        }
    }

    /** Returns the earlier of a time kept ({@code null}: none) and another. */
    private static Instant earlier(Instant known, Instant next) {
        return known == null || next.isBefore(known) ? next : known;
    }

    /**
     * Returns how long a waiting session may sleep before the earliest scheduled send this node knows of is due: 0
     * when it is due now, {@link Long#MAX_VALUE} when none is known; whole milliseconds, rounded up.
     */
    long millisUntilDue() {
        Instant due = nextDue.get();
        if (due == null) {
            return Long.MAX_VALUE;
        }
        Duration left = Duration.between(broker.now(), due);
        if (left.isNegative() || left.isZero()) {
            return 0;
        }
        if (left.getSeconds() >= Long.MAX_VALUE / 1_000 - 1) {
            return Long.MAX_VALUE;
        }
        return left.toMillis() + (left.toNanosPart() % 1_000_000 == 0 ? 0 : 1);
    }

    /**
     * @param found whether the look found messages: such a look leaves the pass to one that found none
     * @return the earliest scheduled send's due time when it is due and this caller won it (it is forgotten then: the
     *         pass or the probe notes the next), else null
     */
    private Instant claimDue(boolean found) {
        Instant due = nextDue.get();
        return !found && due != null && !broker.now().isBefore(due) && nextDue.compareAndSet(due, null) ? due : null;
    }

    /**
     * At most every {@value #REPAIR_MILLIS} ms and at the first look after a start, on a connection of its own: where
     * drained groups are parked ({@link PortableSql#parksDrainedGroups}), queue by queue, gives a turn to parked groups
     * that have messages (the check after a commit was lost) and parks the groups that have a turn and no message,
     * checking those again after that commit; then moves the messages that waited in the transmission queue for a
     * queue enabled again onto it ({@link Transmissions#moveSomeOfAll}), never failing the RECEIVE.
     */
    private void repairIfDue(boolean found) {
        if (!claimRun(nextRepair, REPAIR_MILLIS * 1_000_000L, found)) {
            return;
        }
        try (Connection own = broker.source().open()) {
            own.setAutoCommit(true);
            if (broker.sql().parksDrainedGroups()) {
                repairParkedGroups(own);
            }
            broker.transmissions().moveSomeOfAll(own);
        } catch (SQLException e) {
            throw PortableSession.failure("the housekeeping's repair pass", e);
        }
    }

    private void repairParkedGroups(Connection own) {
        PortableSql sql = broker.sql();
        try {
            java.util.Set<String> repaired = new java.util.LinkedHashSet<>();
            int unparked = 0;
            java.util.Set<UUID> parked = new java.util.HashSet<>();
            for (String queue : Jdbc.list(own, sql.queueNames, rs -> rs.getString(1))) {
                int n = Jdbc.list(own, sql.unparkQueue(), rs -> Jdbc.uuid(rs, "conversation_group_id"), queue).size();
                if (n > 0) {
                    unparked += n;
                    repaired.add(queue);
                }
                parked.addAll(Jdbc.list(own, sql.parkQueue(), rs -> Jdbc.uuid(rs, "conversation_group_id"), queue));
            }
            if (!repaired.isEmpty()) {
                LOG.parkedGroupsRepaired(unparked, repaired);
                broker.signals().signalAll(repaired);
                broker.committed(repaired);
            }
            broker.unparkAfterCommit(parked);
        } catch (SQLException e) {
            throw PortableSession.failure("giving parked conversation groups with messages their turn", e);
        }
    }

    /**
     * @param next when the next run is due (nanoTime), {@code Long.MIN_VALUE} before the first
     * @param intervalNanos the interval between runs
     * @param overdueOnly claim only when a whole interval more than due has passed
     * @return whether a run is due now and this caller won it (the next is then due an interval later)
     */
    private boolean claimRun(AtomicLong next, long intervalNanos, boolean overdueOnly) {
        long now = nanos.getAsLong();
        long due = next.get();
        return (due == Long.MIN_VALUE || now - due >= (overdueOnly ? intervalNanos : 0))
                && next.compareAndSet(due, now + intervalNanos);
    }
}
