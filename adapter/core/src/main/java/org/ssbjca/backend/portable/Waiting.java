package org.ssbjca.backend.portable;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.QueueSignals;

/**
 * WAITFOR for the portable schema: look at the queue, and while there is nothing, sleep until the queue is signalled
 * (a sending transaction committed) or a bounded fallback interval passed, then look again. Never busy-polls.
 */
final class Waiting {

    private final QueueSignals signals;
    private final long fallbackPollMillis;

    Waiting(QueueSignals signals, long fallbackPollMillis) {
        this.signals = signals;
        this.fallbackPollMillis = fallbackPollMillis;
    }

    /**
     * @param queue the queue whose signal wakes the wait
     * @param timeout zero for one look, {@link ReceiveRequest#FOREVER} for no limit
     * @param cancelled when it turns true the wait ends, empty
     * @param look one look at the queue; null when there was nothing
     * @param <T> what a look finds
     * @return what the first successful look found, or null when the time ran out, the wait was cancelled or the
     *         thread interrupted
     */
    <T> T await(String queue, Duration timeout, BooleanSupplier cancelled, Supplier<T> look) {
        boolean forever = ReceiveRequest.FOREVER.equals(timeout);
        long deadline = forever ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
        while (true) {
            long generation = signals.generation(queue);
            if (cancelled.getAsBoolean()) {
                return null;
            }
            T found = look.get();
            if (found != null || timeout.isZero()) {
                return found;
            }
            long remainingMillis = forever ? Long.MAX_VALUE : (deadline - System.nanoTime()) / 1_000_000L;
            if (remainingMillis <= 0) {
                return null;
            }
            try {
                signals.await(queue, generation,
                        signals.waitMillis(queue, Math.min(remainingMillis, fallbackPollMillis)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }
}
