package org.ssbjca.fakes;

import jakarta.resource.spi.work.ExecutionContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkEvent;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkListener;
import jakarta.resource.spi.work.WorkManager;
import jakarta.resource.spi.work.WorkRejectedException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A work manager that runs every work on a thread of its own, and remembers the threads. With
 * {@link #limitThreads(int)} it runs at most that many works at a time and queues the others, in order, until one
 * ends: as WildFly's long-running pool does once its threads are taken. With {@link #limitQueue(int)} its queue is
 * bounded as WildFly's is (IronJacamar's {@code WorkManagerImpl.scheduleWork} hands the work to a JBoss Threads
 * blocking executor): once the threads and the queue are taken, the submitting thread blocks until there is room, for
 * ever with {@link WorkManager#INDEFINITE}, else at most the start timeout, and then the work is rejected with
 * {@link WorkException#START_TIMED_OUT}. A rejection, there or by {@link #refuseWork(boolean)}, is told to the work's
 * listener ({@code workRejected}) before it is thrown, as IronJacamar does; {@link #rejectQueuedWorks()} rejects
 * works already accepted, as a container may whose start timeout passed before a thread took them. With
 * {@link #hold(java.util.function.Predicate)} it accepts the works of some names and starts them only at
 * {@link #releaseHeld()}: a container whose pool takes its time.
 */
public final class FakeWorkManager implements WorkManager {

    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final Deque<Submitted> queued = new ArrayDeque<>();
    private volatile boolean refusing;
    private volatile java.util.function.Predicate<String> holding = name -> false;
    private final List<Submitted> held = new ArrayList<>();
    private int limit = Integer.MAX_VALUE;
    private int queueLimit = Integer.MAX_VALUE;
    private int running;
    private int blocked;

    @Override
    public void doWork(Work work) {
        work.run();
    }

    @Override
    public void doWork(Work work, long timeout, ExecutionContext ctx, WorkListener listener) {
        work.run();
    }

    @Override
    public long startWork(Work work) throws WorkException {
        scheduleWork(work);
        return 0;
    }

    @Override
    public long startWork(Work work, long timeout, ExecutionContext ctx, WorkListener listener)
            throws WorkException {
        scheduleWork(work, timeout, ctx, listener);
        return 0;
    }

    @Override
    public void scheduleWork(Work work) throws WorkException {
        scheduleWork(work, INDEFINITE, null, null);
    }

    @Override
    public void scheduleWork(Work work, long timeout, ExecutionContext ctx, WorkListener listener)
            throws WorkException {
        Submitted s = new Submitted(work, listener);
        if (refusing) {
            throw s.rejected(new WorkRejectedException("the fake work manager refuses work"));
        }
        if (listener != null) {
            listener.workAccepted(new WorkEvent(this, WorkEvent.WORK_ACCEPTED, work, null));
        }
        if (holding.test(String.valueOf(work))) {
            synchronized (this) {
                held.add(s);
            }
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout);
        WorkRejectedException rejection = null;
        synchronized (this) {
            blocked++;
            try {
                while (rejection == null && running >= limit && queued.size() >= queueLimit) {
                    long left = deadline - System.nanoTime();
                    if (timeout != INDEFINITE && left <= 0) {
                        rejection = new WorkRejectedException("no room in the fake work manager's queue within "
                                + timeout + " ms", WorkException.START_TIMED_OUT);
                    } else if (timeout == INDEFINITE) {
                        wait();
                    } else {
                        TimeUnit.NANOSECONDS.timedWait(this, left);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                rejection = new WorkRejectedException("interrupted while waiting for room", e);
            } finally {
                blocked--;
            }
            if (rejection == null && running >= limit) {
                queued.add(s);
                return;
            }
            if (rejection == null) {
                running++;
            }
        }
        if (rejection != null) {
            throw s.rejected(rejection); // the listener is told outside the lock, as a container's thread would
        }
        start(s);
    }

    private void start(Submitted s) {
        Thread t = new Thread(() -> {
            try {
                if (s.listener != null) {
                    s.listener.workStarted(new WorkEvent(this, WorkEvent.WORK_STARTED, s.work, null));
                }
                s.work.run();
            } finally {
                if (s.listener != null) {
                    s.listener.workCompleted(new WorkEvent(this, WorkEvent.WORK_COMPLETED, s.work, null));
                }
                ended();
            }
        }, "fake-work-" + s.work);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    /** A work ended: its thread takes the first queued work, if any. */
    private void ended() {
        Submitted next;
        synchronized (this) {
            notifyAll(); // a submitter blocked for room: the queue has some now, or a thread
            next = queued.poll();
            if (next == null) {
                running--;
                return;
            }
        }
        start(next);
    }

    /** @param threads the most works to run at once from now on; the others wait in a queue until one ends */
    public synchronized void limitThreads(int threads) {
        this.limit = threads;
        notifyAll();
    }

    /**
     * @param works the most works that wait for a thread from now on; a submitter of one more blocks until there is
     *        room (unbounded until called)
     */
    public synchronized void limitQueue(int works) {
        this.queueLimit = works;
        notifyAll();
    }

    /** @return the works waiting for a thread */
    public synchronized int queuedWorks() {
        return queued.size();
    }

    /** @return the threads blocked in a submission, waiting for room in the queue */
    public synchronized int blockedSubmitters() {
        return blocked;
    }

    /**
     * Rejects every queued work with {@link WorkException#START_TIMED_OUT} through its listener, as a container does
     * whose start timeout passed before a thread took it: they never run.
     *
     * @return how many were rejected
     */
    public int rejectQueuedWorks() {
        List<Submitted> rejected;
        synchronized (this) {
            rejected = new ArrayList<>(queued);
            queued.clear();
            notifyAll();
        }
        rejected.forEach(s -> s.rejected(new WorkRejectedException("its start timed out in the queue",
                WorkException.START_TIMED_OUT)));
        return rejected.size();
    }

    /**
     * @param names which works (by their {@code toString()}, a long-running work's name) to accept and keep, not
     *        started, until {@link #releaseHeld()}, from now on
     */
    public void hold(java.util.function.Predicate<String> names) {
        this.holding = names;
    }

    /**
     * Starts the works held so far, each on a thread of its own (whatever the limit of threads), and holds none from
     * now on.
     *
     * @return how many were held
     */
    public int releaseHeld() {
        holding = name -> false;
        List<Submitted> released;
        synchronized (this) {
            released = new ArrayList<>(held);
            held.clear();
            running += released.size();
        }
        released.forEach(this::start);
        return released.size();
    }

    /** @return the names of the works held now, not started */
    public synchronized List<String> heldWorks() {
        return held.stream().map(s -> String.valueOf(s.work)).toList();
    }

    /** @param refusing whether to refuse new work from now on, as a container short of threads does */
    public void refuseWork(boolean refusing) {
        this.refusing = refusing;
    }

    /** @return how many of the threads it started are still alive */
    public long liveThreads() {
        return threads.stream().filter(Thread::isAlive).count();
    }

    private final class Submitted {
        final Work work;
        final WorkListener listener;

        Submitted(Work work, WorkListener listener) {
            this.work = work;
            this.listener = listener;
        }

        /** Tells the listener, as IronJacamar does before it throws. */
        WorkRejectedException rejected(WorkRejectedException e) {
            if (listener != null) {
                listener.workRejected(new WorkEvent(FakeWorkManager.this, WorkEvent.WORK_REJECTED, work, e));
            }
            return e;
        }
    }
}
