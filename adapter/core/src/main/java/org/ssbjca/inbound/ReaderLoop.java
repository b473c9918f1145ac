package org.ssbjca.inbound;

import jakarta.resource.spi.endpoint.MessageEndpoint;
import java.util.Objects;
import java.util.stream.Stream;
import org.ssbjca.support.Backoff;
import org.ssbjca.support.TaskEnd;

/**
 * The loop every reader runs, a queue's ({@link QueueReader}) or a table's
 * ({@link org.ssbjca.inbound.table.TableReader}): connect, one turn (take, deliver, settle), and again until stopped.
 * A failed turn discards the connection and the endpoint and waits
 * with the activation's backoff (capped, exponential, with jitter) before it connects again; a turn that succeeds
 * resets the backoff. A reader supplies only what differs: how it connects, what a turn is, how it reports a
 * failure, and what a stop interrupts.
 * <p>
 * Threading: {@link #run} runs on one container work thread, which alone uses the endpoint; {@link #stop},
 * {@link #wake} and {@link #isStopped} may be called from any thread. A reader stopped before it had a thread never
 * runs. Transactions: the loop begins none; each turn's transaction is the reader's own business.
 */
public abstract class ReaderLoop implements Reader {

    private final String name;
    private final Backoff backoff;
    private final TaskEnd end = new TaskEnd();
    private volatile boolean stopped;
    private volatile ReaderConnection connection;
    private MessageEndpoint endpoint;

    /**
     * @param name the reader's name, for logs and thread dumps
     * @param backoff the waits between failed turns
     */
    protected ReaderLoop(String name, Backoff backoff) {
        this.name = name;
        this.backoff = backoff;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final void run() {
        if (!end.begin()) {
            return; // stopped while it waited for a thread: it never runs, and its end was reached by the stop
        }
        try {
            while (!stopped) {
                try {
                    long idle = 0;
                    boolean turned = false;
                    if (mayRead()) {
                        ready();
                        if (!stopped) {
                            idle = turn();
                        }
                        turned = true;
                    }
                    succeeded(turned);
                    backoff.reset();
                    if (idle > 0) {
                        pause(idle);
                    }
                } catch (Exception | Error e) {
                    // an Error (a class the bean needs cannot be loaded) must not end the reader silently: it would
                    // stay counted among the readers and never be replaced
                    if (stopped) {
                        break;
                    }
                    long delay = backoff.nextDelayMillis();
                    failed(e, backoff.failures(), delay);
                    discard();
                    waitAfterFailure(e, delay);
                }
            }
        } finally {
            discard();
            ended();
            end.reached();
        }
    }

    private void ready() throws Exception {
        if (connection == null) {
            connect();
        }
        if (endpoint == null && !stopped) {
            endpoint = createEndpoint(connection);
        }
    }

    /**
     * Whether the reader may take work now; it may block (a paused activation), ending early once stopped.
     *
     * @return false to skip this turn (the loop looks again unless stopped)
     * @throws Exception a failed turn, such as an interrupted wait
     */
    protected boolean mayRead() throws Exception {
        return true;
    }

    /**
     * Opens the reader's connection and hands it to {@link #connected} (before any check that may fail on it, so that
     * a failure discards it). Left without one when the reader stopped meanwhile.
     *
     * @throws Exception if it cannot be opened or is not fit to read
     */
    protected abstract void connect() throws Exception;

    /**
     * Hands the loop the connection the reader opened.
     *
     * @param c the connection the reader now reads with, discarded on its next failure
     */
    protected final void connected(ReaderConnection c) {
        connection = c;
    }

    /**
     * Returns the endpoint for its deliveries, given the connection's XA resource when the bean is transacted.
     *
     * @param c the reader's connection
     * @throws Exception if the container refuses one
     */
    protected abstract MessageEndpoint createEndpoint(ReaderConnection c) throws Exception;

    /**
     * One turn: take, deliver, settle, on the reader's connection and endpoint.
     *
     * @return how long to wait before the next turn (it found nothing to take), 0 for none
     * @throws Exception whatever fails the reader's connection or endpoint: both are discarded
     */
    protected abstract long turn() throws Exception;

    /**
     * Says a turn, or a skipped one, ended without failure.
     *
     * @param turned whether a turn ran (false: {@link #mayRead} said no)
     */
    protected abstract void succeeded(boolean turned);

    /**
     * Says a failed turn; the loop then discards the connection and endpoint and waits {@code delayMillis}.
     *
     * @param failures consecutive failures, this one included
     */
    protected abstract void failed(Throwable e, int failures, long delayMillis);

    /** The loop ended: the reader no longer counts anywhere. */
    protected abstract void ended();

    /**
     * Waits after a failed turn, its resources discarded: by default {@code delayMillis} (the backoff's), cut short
     * by a stop. Runs on the reader's thread.
     */
    protected void waitAfterFailure(Throwable e, long delayMillis) {
        pause(delayMillis);
    }

    /**
     * What a stop interrupts besides the loop, called once the reader is marked stopped, unless it never ran.
     *
     * @param c the reader's connection, or null
     */
    protected void stopping(ReaderConnection c) {
    }

    @Override
    public final boolean isStopped() {
        return stopped;
    }

    @Override
    public final void stop() {
        stopped = true;
        if (end.dropIfWaiting()) {
            return; // it had no thread yet, and now never runs: nothing to interrupt
        }
        stopping(connection);
    }

    /** Ends the reader's wait for work on its connection, if it waits, so that it comes back for other work. */
    final void wake() {
        ReaderConnection c = connection;
        if (c != null) {
            c.wake();
        }
    }

    /** @return the end of the reader's loop, reached once it has left its thread (or by a stop before it began) */
    @Override
    public final TaskEnd end() {
        return end;
    }

    /** Returns the reader's connection, or null between a failure and the next connect. */
    protected final ReaderConnection connection() {
        return connection;
    }

    /** Returns the reader's endpoint (loop thread only). */
    protected final MessageEndpoint endpoint() {
        return endpoint;
    }

    /** Returns the causes of a failure, its own first, at most 10 deep. */
    static Stream<Throwable> causes(Throwable e) {
        return Stream.iterate(e, Objects::nonNull, Throwable::getCause).limit(11);
    }

    /**
     * Returns what failed, for LastError and the reconnect notification: the message, or, for a wrapper that has none
     * (afterDelivery's failed commit as an UndeclaredThrowableException), its first cause that has one with that
     * cause's class, else the class.
     */
    protected static String describe(Throwable e) {
        if (e.getMessage() != null) {
            return e.getMessage();
        }
        return causes(e).skip(1).filter(c -> c.getMessage() != null).findFirst().orElse(e).toString();
    }

    private void discard() {
        ReaderConnection c = connection;
        connection = null;
        ReaderResources.discard(endpoint, c, name);
        endpoint = null;
    }

    private void pause(long millis) {
        ReaderResources.pause(this::isStopped, millis);
    }
}
