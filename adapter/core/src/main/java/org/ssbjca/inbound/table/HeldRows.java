package org.ssbjca.inbound.table;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.ssbjca.api.TableRow;

/**
 * The rows of one table activation whose delivery failed, kept in memory by its readers: which are held back (not to
 * be taken before their retry delay ends, nor while their failure is being counted) and how often each has failed
 * since it was first logged. Thread safe; shared by the activation's readers; a delivery that has no failed row costs
 * one read of an empty map.
 * <p>
 * Only this activation's readers in this JVM know of a hold: another node's readers, or this node's after a restart,
 * may take a held row once before its delay ends (each then holds it in its own map).
 */
final class HeldRows {

    /** The most held keys a taking statement leaves out; beyond them a taken held row is given back undelivered. */
    static final int MAX_IN_STATEMENT = 256;
    /** How long a failed row is remembered after its hold ended when it does not fail again (deleted, say). */
    private static final long FORGET_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final Map<Object, Failed> rows = new ConcurrentHashMap<>();

    /** One failed row: its key as the driver returned it, its failures, and until when it is held. */
    static final class Failed {
        final Object key;
        final Instant firstFailure = Instant.now();
        private int failures;
        private long until = System.nanoTime();
        private boolean counting;

        private Failed(Object key) {
            this.key = key;
        }

        synchronized boolean heldAt(long now) {
            return counting || until - now > 0;
        }

        synchronized boolean forgottenAt(long now) {
            return !counting && now - until > FORGET_NANOS;
        }

        private synchronized boolean counting() {
            return counting;
        }

        private synchronized long until() {
            return until;
        }
    }

    /** @return the key as a map key: a byte array by its content */
    private static Object id(Object key) {
        return key instanceof byte[] b ? ByteBuffer.wrap(b.clone()) : key;
    }

    /**
     * Holds rows whose delivery is about to roll back, before the rollback releases their locks, until
     * {@link #counted} says their failure is counted: no reader of this activation takes them meanwhile.
     */
    void counting(List<TableRow> failed) {
        for (TableRow row : failed) {
            Failed f = rows.computeIfAbsent(id(row.key()), k -> new Failed(row.key()));
            synchronized (f) {
                f.counting = true;
            }
        }
    }

    /**
     * A row's delivery failed: it is held until {@code delaySeconds} from now (and while its failure is being
     * counted).
     *
     * @return how many times it has failed, this time included, since it was first logged
     */
    int failed(TableRow row, int delaySeconds) {
        Failed f = rows.computeIfAbsent(id(row.key()), k -> new Failed(row.key()));
        synchronized (f) {
            f.failures++;
            f.until = System.nanoTime() + TimeUnit.SECONDS.toNanos(delaySeconds);
            return f.failures;
        }
    }

    /** The rows' failure is counted (or will not be): they are held only until their delay ends. */
    void counted(List<TableRow> failed) {
        for (TableRow row : failed) {
            Failed f = rows.get(id(row.key()));
            if (f != null) {
                synchronized (f) {
                    f.counting = false;
                }
            }
        }
    }

    /** The rows were delivered, or set aside: they are forgotten. */
    void forget(List<TableRow> done) {
        if (!rows.isEmpty()) {
            for (TableRow row : done) {
                rows.remove(id(row.key()));
            }
        }
    }

    /** Returns the failed row of that key, or null. */
    Failed get(TableRow row) {
        return rows.isEmpty() ? null : rows.get(id(row.key()));
    }

    /** Returns whether some of the rows are held now. */
    boolean anyHeld(List<TableRow> taken) {
        if (rows.isEmpty()) {
            return false;
        }
        long now = System.nanoTime();
        for (TableRow row : taken) {
            Failed f = rows.get(id(row.key()));
            if (f != null && f.heldAt(now)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Returns whether no row is remembered as failing: none failed, or each was delivered, set aside, or has not failed
     * again within a minute after its hold ended.
     */
    boolean isEmpty() {
        if (rows.isEmpty()) {
            return true;
        }
        sweep(System.nanoTime());
        return rows.isEmpty();
    }

    /** Forgets the rows whose hold ended over a minute ago. */
    private void sweep(long now) {
        rows.entrySet().removeIf(e -> e.getValue().forgottenAt(now));
    }

    /**
     * Returns the keys of the rows held now, as the driver returned them, at most {@link #MAX_IN_STATEMENT} (those
     * being counted first, then those held longest); forgets the rows whose hold ended over a minute ago.
     */
    List<Object> keys() {
        if (rows.isEmpty()) {
            return List.of();
        }
        long now = System.nanoTime();
        sweep(now);
        List<Failed> held = new ArrayList<>();
        for (Failed f : rows.values()) {
            if (f.heldAt(now)) {
                held.add(f);
            }
        }
        if (held.size() > MAX_IN_STATEMENT) {
            held.sort(Comparator.comparing((Failed f) -> !f.counting())
                    .thenComparing(Failed::until, Comparator.reverseOrder()));
            held = held.subList(0, MAX_IN_STATEMENT);
        }
        List<Object> keys = new ArrayList<>(held.size());
        held.forEach(f -> keys.add(f.key));
        return keys;
    }
}
