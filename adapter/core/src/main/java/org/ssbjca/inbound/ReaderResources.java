package org.ssbjca.inbound;

import jakarta.resource.spi.endpoint.MessageEndpoint;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.ssbjca.support.AdapterLog;

/** What every reader loop (queue or table) does with its endpoint and connection, and how it waits. */
final class ReaderResources {

    private static final AdapterLog LOG = AdapterLog.of(ReaderResources.class);

    private ReaderResources() {
    }

    /**
     * Releases a reader's endpoint and closes its connection, either of which may be null.
     *
     * @param endpoint the endpoint, or null
     * @param connection the connection, or null
     * @param reader the reader's name, for the log
     */
    static void discard(MessageEndpoint endpoint, ReaderConnection connection, String reader) {
        if (endpoint != null) {
            try {
                endpoint.release();
            } catch (RuntimeException e) {
                LOG.endpointReleaseFailed(e, reader);
            }
        }
        if (connection != null) {
            connection.close();
        }
    }

    /**
     * Waits {@code millis}, in steps of at most 100 ms, ending early once {@code stopped} says so.
     *
     * @param stopped whether the reader is stopping
     * @param millis how long
     */
    static void pause(BooleanSupplier stopped, long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!stopped.getAsBoolean() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(Math.min(100, Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()))));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
