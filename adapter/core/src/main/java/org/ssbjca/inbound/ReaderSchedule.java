package org.ssbjca.inbound;

import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.ssbjca.brokers.AdapterContext;
import org.ssbjca.brokers.WorkManagerRunner;
import org.ssbjca.support.AdapterLog;
import org.ssbjca.support.TaskEnd;

/**
 * An activation's readers on the container's work manager: how many it has, how many of them still wait for a thread,
 * and the start of those it adds ({@link #start}), which {@link ReaderStarts} then looks at.
 * <p>
 * It hands an activation's new readers to the container's work manager, not holding the activation's lock: WildFly's
 * work manager blocks the caller while its long-running pool's threads and queue are all taken, and a stop (an
 * undeploy) must not wait for that. Each reader is given a start timeout ({@link ReaderStarts#waitMillis}), so that a
 * deployment or a JMX call waits at most that long; once the work manager refuses one, the readers after it are not
 * offered (each would wait as long) and are refused with it. A reader refused, at once or later (a container may
 * reject a work it accepted, when its start timeout passes in the queue), never runs: it leaves the activation's
 * readers and is said at WARN (SSBJCA0015).
 *
 * @param <R> the activation's readers
 */
public final class ReaderSchedule<R extends Reader> {

    /** How long an activation's stop waits, at most, for its readers' deliveries in flight. */
    static final long STOP_WAIT_MILLIS = 30_000;

    /** The stop's bound in use: {@link #STOP_WAIT_MILLIS}, shortened by tests only. */
    static volatile long stopWaitMillis = STOP_WAIT_MILLIS;

    private final Object owner;
    private final List<R> readers;
    private final AdapterLog log;
    private final String activation;
    private final ReaderStarts starts;

    /**
     * @param owner the activation, whose lock guards its readers
     * @param readers its readers
     * @param log its category
     * @param activation its name
     */
    public ReaderSchedule(Object owner, List<R> readers, AdapterLog log, String activation) {
        this.owner = owner;
        this.readers = readers;
        this.log = log;
        this.activation = activation;
        this.starts = new ReaderStarts(log, activation, this::readerCount, this::waitingReaders);
    }

    /**
     * Returns the activation's readers: those running and those still waiting for a thread of the container's work
     * manager ({@link #waitingReaders()}).
     */
    public int readerCount() {
        return readers.size();
    }

    /** Returns of {@link #readerCount()}, the readers waiting for a thread ({@link Reader#waiting()}). */
    public int waitingReaders() {
        return (int) readers.stream().filter(Reader::waiting).count();
    }

    /**
     * Schedules the readers just added ({@link #schedule}) and then, unless the activation stopped meanwhile, has
     * {@link ReaderStarts} look, after its wait, whether they got a thread (SSBJCA0014). Call it without holding the
     * owner's lock.
     *
     * @param ra the resource adapter: its work manager and its timer
     * @param added readers just added to the owner's readers; those stopped meanwhile are not offered
     * @param stopped whether the activation stopped, read holding the owner's lock
     * @return whether the activation, not stopped, is left with no reader: the work manager refused every one
     */
    public boolean start(AdapterContext ra, List<R> added, BooleanSupplier stopped) {
        schedule(ra.workManager(), added);
        synchronized (owner) {
            if (stopped.getAsBoolean()) {
                return false;
            }
            starts.added(ra.timer());
            return readers.isEmpty();
        }
    }

    /** The activation stops: no look at whether its readers got a thread. */
    public void cancel() {
        starts.cancel();
    }

    /**
     * Stops the readers the stopping activation took out of its own, and waits (at most {@value #STOP_WAIT_MILLIS}
     * ms for all) for each to leave its thread; one that does not is said at WARN (SSBJCA0011). A reader still waiting
     * for a thread is not waited for: the stop drops it, and it never runs. Call it without holding the owner's lock.
     *
     * @param stopping the readers, running, retired or waiting for a thread
     */
    public void stop(List<R> stopping) {
        stopping.forEach(Reader::stop);
        long bound = stopWaitMillis;
        for (R r : TaskEnd.notEndedWithin(bound, stopping, Reader::end)) {
            log.readerDidNotStop(r.name(), bound);
        }
    }

    /**
     * Offers each reader to the work manager, in turn, until one is refused.
     *
     * @param workManager the container's work manager
     * @param added readers just added to the owner's readers; those stopped meanwhile are not offered
     */
    private void schedule(WorkManager workManager, List<R> added) {
        long timeout = ReaderStarts.waitMillis;
        WorkException refusal = null;
        List<R> notRun = new ArrayList<>();
        for (R r : added) {
            if (refusal == null && !r.isStopped()) {
                refusal = WorkManagerRunner.schedule(workManager, r.name(), r, r::stop, timeout,
                        e -> refused(List.of(r), e, timeout));
            }
            if (refusal != null) {
                notRun.add(r);
            }
        }
        if (refusal != null) {
            refused(notRun, refusal, timeout);
        }
    }

    private void refused(List<R> refused, WorkException e, long timeout) {
        int dropped = 0;
        int left;
        synchronized (owner) {
            for (R r : refused) {
                dropped += readers.remove(r) ? 1 : 0;
            }
            left = readers.size();
        }
        refused.forEach(Reader::stop); // none began: each is dropped, and one run later returns at once
        if (dropped > 0) {
            log.readersRefused(activation, dropped, WorkManagerRunner.why(e, timeout), left);
        }
    }
}
