package org.ssbjca.backend.portable;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.QueueSignals;
import org.ssbjca.support.FlightEvents;
import org.ssbjca.support.WaitEvent;

/**
 * WAITFOR for the portable schema: look at the queue, and while there is nothing, sleep until the queue is signalled
 * (a sending transaction committed), a bounded fallback interval passed or a scheduled send is due, then look again.
 * Never busy-polls: only a caller's bounded run of looks without sleeps, a new connection's priming of its RECEIVE
 * ({@link Dialect#primingLooks}), goes from one look to the next at once.
 */
final class Waiting {

    private final QueueSignals signals;
    private final long fallbackPollMillis;
    private final LongSupplier untilDueMillis;

    Waiting(QueueSignals signals, long fallbackPollMillis) {
        this(signals, fallbackPollMillis, () -> Long.MAX_VALUE);
    }

    /**
     * @param signals the queues' signals
     * @param fallbackPollMillis the longest sleep without a signal
     * @param untilDueMillis how long until something is due that a look runs (a scheduled send: {@link
     *        Housekeeping#millisUntilDue}); a sleep ends then, 1 ms after it at the earliest
     */
    Waiting(QueueSignals signals, long fallbackPollMillis, LongSupplier untilDueMillis) {
        this.signals = signals;
        this.fallbackPollMillis = fallbackPollMillis;
        this.untilDueMillis = untilDueMillis;
    }

    /**
     * Looks at a queue until a look finds something, sleeping between looks until the queue's signal or the fallback
     * poll; returns what the first successful look found, or null when the time ran out, the wait was cancelled or
     * the thread interrupted.
     *
     * @param queue the queue whose signal wakes the wait
     * @param timeout zero for one look, {@link ReceiveRequest#FOREVER} for no limit
     * @param anyGroup whether a look takes whichever conversation group comes next (not one conversation or group):
     *        such waiters are interchangeable, and a commit wakes only as many of them as it filled groups ({@link
     *        QueueSignals#await(String, long, long, boolean)})
     * @param cancelled when it turns true the wait ends, empty (read once per look, and may consume what it reads)
     * @param ending whether {@code cancelled} would turn true, without consuming it: read while the wait sleeps,
     *        which {@link QueueSignals#release} wakes to check it
     * @param look one look at the queue; null when there was nothing
     * @param <T> what a look finds
     */
    <T> T await(String queue, Duration timeout, boolean anyGroup, BooleanSupplier cancelled, BooleanSupplier ending,
            Supplier<T> look) {
        return await(queue, timeout, anyGroup, cancelled, ending, () -> false, look);
    }

    /**
     * As {@link #await(String, Duration, boolean, BooleanSupplier, BooleanSupplier, Supplier)}, and while {@code
     * lookAgain} says so after a look that found nothing, looks again at once instead of sleeping: a new connection's
     * reader runs its statement until its plan is cached ({@link Dialect#primingLooks}).
     *
     * @param lookAgain read after each look that found nothing, while the wait has time left
     */
    <T> T await(String queue, Duration timeout, boolean anyGroup, BooleanSupplier cancelled, BooleanSupplier ending,
            BooleanSupplier lookAgain, Supplier<T> look) {
        boolean forever = ReceiveRequest.FOREVER.equals(timeout);
        long deadline = forever ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
        // true while this waiter holds a wake-up meant for one interchangeable waiter: handed on if it will not look
        boolean woken = false;
        while (true) {
            long generation = signals.generation(queue);
            if (cancelled.getAsBoolean()) {
                passOnIf(woken && anyGroup, queue);
                return null;
            }
            T found;
            try {
                found = look.get();
            } catch (RuntimeException | Error e) {
                passOnIf(woken && anyGroup, queue);
                throw e;
            }
            if (found != null || timeout.isZero()) {
                return found;
            }
            long remainingMillis = forever ? Long.MAX_VALUE : (deadline - System.nanoTime()) / 1_000_000L;
            if (remainingMillis <= 0) {
                return null;
            }
            if (lookAgain.getAsBoolean()) {
                continue;
            }
            try {
                woken = sleep(queue, generation, remainingMillis, anyGroup, ending);
            } catch (InterruptedException e) {
                passOnIf(anyGroup, queue);
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }

    /**
     * Sleeps until the queue's signal, the end of the wait, or its bound ({@link #sleepMillis}); when something comes
     * due sooner than the sleep would end ({@link QueueSignals#releaseAll} after the due time was noted), sleeps again
     * to the new bound without a look.
     *
     * @return whether the queue's generation moved
     */
    private boolean sleep(String queue, long generation, long remainingMillis, boolean anyGroup,
            BooleanSupplier ending) throws InterruptedException {
        long start = System.nanoTime();
        long left = remainingMillis;
        while (true) {
            WaitEvent event = FlightEvents.begun(new WaitEvent());
            long waitMillis = sleepMillis(queue, left);
            long waitStart = System.nanoTime();
            long until = waitStart + waitMillis * 1_000_000L;
            BooleanSupplier dueSooner = () -> untilDueMillis.getAsLong() < (until - System.nanoTime()) / 1_000_000L;
            boolean woken = signals.await(queue, generation, waitMillis, anyGroup,
                    () -> ending.getAsBoolean() || dueSooner.getAsBoolean());
            if (event != null) {
                recordWait(event, queue, woken, waitStart, waitMillis);
            }
            if (woken || ending.getAsBoolean() || System.nanoTime() - until >= 0 || !dueSooner.getAsBoolean()) {
                return woken;
            }
            if (remainingMillis != Long.MAX_VALUE) {
                left = remainingMillis - (System.nanoTime() - start) / 1_000_000L;
            }
            if (left <= 0) {
                return false;
            }
        }
    }

    /**
     * Returns how long a wait sleeps at most: the fallback poll, or less when the wait's time runs out, the queue is to
     * be looked at sooner ({@link QueueSignals#waitMillis}) or something is due sooner; at least 1 ms.
     *
     * @param queue the queue
     * @param remainingMillis the wait's time left
     */
    long sleepMillis(String queue, long remainingMillis) {
        long due = Math.max(1, untilDueMillis.getAsLong());
        return signals.waitMillis(queue, Math.min(Math.min(remainingMillis, fallbackPollMillis), due));
    }

    /**
     * Ends and commits a wait's event. The wait counts as signalled when the queue's generation moved before its time
     * ran out (a waiter that another waiter's signal left asleep until then was not woken by it); the signal is the
     * queue's last one, and one that came before the wait began (during the look before it) means the thread did not
     * block: {@code busy} says how long before the wait, and the wake-up counts from the wait's start.
     */
    private void recordWait(WaitEvent event, String queue, boolean generationMoved, long waitStart, long waitMillis) {
        long now = System.nanoTime();
        event.end();
        long signalledAt = signals.signalledAt(queue);
        boolean signalled = generationMoved && now - waitStart < waitMillis * 1_000_000L;
        event.queue = queue;
        event.signalled = signalled;
        event.busy = signalled && signalledAt - waitStart < 0 ? waitStart - signalledAt : 0;
        event.wakeUp = signalled ? now - (event.busy > 0 ? waitStart : signalledAt) : 0;
        event.commit();
    }

    private void passOnIf(boolean pass, String queue) {
        if (pass) {
            signals.passOn(queue);
        }
    }
}
