package org.ssbjca.inbound;

import java.util.Timer;
import java.util.TimerTask;
import java.util.function.IntSupplier;
import org.ssbjca.support.AdapterLog;

/**
 * Whether an activation's readers got a thread. Each reader is a long-running work of the container's work manager,
 * whose long-running pool (WildFly's default: 50 threads, then a queue of 50) every activation shares with the
 * PostgreSQL listener and notifier of each database: readers beyond its threads wait in its queue, and read nothing,
 * until a thread frees. {@value #WAIT_MILLIS} ms after readers are added (the activation starts, MaxReaders is raised)
 * it looks once whether some still wait, and says so at WARN (SSBJCA0014): how many run, how many wait, what to raise.
 * The same wait bounds each reader's scheduling ({@link ReaderSchedule}): a work manager that has no room for it that
 * long refuses it.
 */
final class ReaderStarts {

    /** How long readers may wait for a thread before the warning. */
    static final long WAIT_MILLIS = 10_000;
    /** {@link #WAIT_MILLIS}, also each reader's start timeout; tests shorten it. */
    static volatile long waitMillis = WAIT_MILLIS;

    private final AdapterLog log;
    private final String activation;
    private final IntSupplier readers;
    private final IntSupplier waiting;
    private TimerTask look;

    /**
     * @param log the activation's category
     * @param activation its name
     * @param readers how many readers it has, waiting ones included
     * @param waiting how many of them wait for a thread
     */
    ReaderStarts(AdapterLog log, String activation, IntSupplier readers, IntSupplier waiting) {
        this.log = log;
        this.activation = activation;
        this.readers = readers;
        this.waiting = waiting;
    }

    /**
     * Readers were scheduled: looks after the wait, unless a look is due already (it covers them).
     *
     * @param timer the adapter's timer; null (none) looks never
     */
    synchronized void added(Timer timer) {
        if (timer == null || look != null) {
            return;
        }
        long wait = waitMillis;
        look = new TimerTask() {
            @Override
            public void run() {
                look(wait);
            }
        };
        try {
            timer.schedule(look, wait);
        } catch (IllegalStateException cancelled) {
            look = null; // the adapter is stopping
        }
    }

    private void look(long wait) {
        synchronized (this) {
            look = null;
        }
        try {
            int w = waiting.getAsInt();
            if (w > 0) {
                log.readersWaitingForThreads(activation, Math.max(0, readers.getAsInt() - w), w, wait);
            }
        } catch (RuntimeException e) {
            // thrown out of a TimerTask it would end the adapter's timer, shared by every activation: each later
            // look would then be refused (IllegalStateException) and its warning lost
            log.readerLookFailed(e, activation);
        }
    }

    /** The activation stops: no look. */
    synchronized void cancel() {
        if (look != null) {
            look.cancel();
            look = null;
        }
    }
}
