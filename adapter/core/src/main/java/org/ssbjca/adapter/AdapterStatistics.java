package org.ssbjca.adapter;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.jboss.jca.core.spi.statistics.StatisticsPlugin;
import org.ssbjca.inbound.EndpointActivation;
import org.ssbjca.management.QueueReadings;

/**
 * The adapter's counters as IronJacamar statistics, which WildFly shows in its management model when the adapter is
 * configured in the {@code resource-adapters} subsystem
 * ({@code /subsystem=resource-adapters/resource-adapter=ssb-jca/statistics=extended}) and exports at
 * {@code /metrics} as {@code wildfly_resource_adapters_extended_<name>{resource_adapter="ssb-jca"}}: the sums over
 * the activations running now (an undeployed bean's counts leave the sums). Counters are read from memory; the
 * queues' depth and oldest message from the databases, at most every {@value #QUEUE_READ_MILLIS} ms. Only {@code long} and {@code int} values, the types WildFly
 * exports as metrics.
 */
final class AdapterStatistics implements StatisticsPlugin {

    private static final long serialVersionUID = 1L;

    private final transient Supplier<? extends Iterable<EndpointActivation>> activations;
    private final transient Map<String, Statistic> statistics = new LinkedHashMap<>();
    private volatile boolean enabled = true;

    /** One statistic: its type, description and how it is read. */
    private record Statistic(Class<?> type, String description, ToLongFunction<Iterable<EndpointActivation>> value) {
    }

    AdapterStatistics(Supplier<? extends Iterable<EndpointActivation>> activations) {
        this.activations = activations;
        add("Activations", int.class, "message-driven beans whose readers run now", total(a -> 1));
        add("ActiveReaders", int.class, "readers running now, over every activation",
                total(EndpointActivation::readerCount));
        add("ParkedReaders", int.class, "readers waiting for a paused activation to resume",
                total(EndpointActivation::parkedReaders));
        add("Received", long.class, "messages the readers received", total(a -> a.metrics().received()));
        add("Delivered", long.class, "messages the beans processed in deliveries that committed",
                total(a -> a.metrics().delivered()));
        add("Committed", long.class, "delivery transactions that committed", total(a -> a.metrics().committed()));
        add("RolledBack", long.class, "deliveries that failed (rolled back)", total(a -> a.metrics().rolledBack()));
        add("Redelivered", long.class, "messages handed to a bean again after a failed delivery",
                total(a -> a.metrics().redelivered()));
        add("DeadLettered", long.class, "messages set aside as dead letters", total(a -> a.metrics().deadLettered()));
        add("ErrorsReceived", long.class, "Error messages received (the other side ended with an error)",
                total(a -> a.metrics().errorsReceived()));
        add("PriorityRequestsRejected", long.class, "priority requests without a priority from 0 to 255",
                total(a -> a.metrics().priorityRequestsRejected()));
        add("QueueDepth", long.class, "messages waiting in the activations' queues (read at most every "
                + QUEUE_READ_MILLIS / 1000 + " s; -1 when a database cannot be read)", all -> queues().depth());
        add("OldestMessageAgeSeconds", long.class, "age of the oldest message in the activations' queues, 0 when"
                + " they are empty (read at most every " + QUEUE_READ_MILLIS / 1000 + " s; -1 when a database cannot"
                + " be read)", all -> queues().oldestAgeSeconds());
    }

    /** How long a reading of the queues serves, so that a scrape of several attributes queries once. */
    static final long QUEUE_READ_MILLIS = 5_000;

    /** The queues' depth and oldest message, as last read. */
    private record QueueReading(long depth, long oldestAgeSeconds, long readAtNanos) {
    }

    private transient volatile QueueReading lastReading;

    /** @return the queues' reading, from the database when the last one is older than {@link #QUEUE_READ_MILLIS} */
    private synchronized QueueReading queues() {
        QueueReading last = lastReading;
        long now = System.nanoTime();
        if (last != null && now - last.readAtNanos() < java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(
                QUEUE_READ_MILLIS)) {
            return last;
        }
        long depth = 0;
        long oldest = 0;
        java.util.Set<String> seen = new java.util.HashSet<>();
        try {
            for (EndpointActivation a : activations.get()) {
                if (!seen.add(a.database().source().config() + "/" + a.queue())) {
                    continue; // two beans on one queue: counted once
                }
                QueueReadings.Reading queue = QueueReadings.read(a);
                depth += queue.depth();
                if (queue.oldest() != null) {
                    oldest = Math.max(oldest, java.time.Duration.between(queue.oldest(), java.time.Instant.now())
                            .getSeconds());
                }
            }
        } catch (IllegalStateException unreadable) {
            depth = -1;
            oldest = -1;
        }
        lastReading = new QueueReading(depth, oldest, now);
        return lastReading;
    }

    private void add(String name, Class<?> type, String description,
            ToLongFunction<Iterable<EndpointActivation>> value) {
        statistics.put(name, new Statistic(type, description, value));
    }

    /** @return the sum of a value over the activations */
    private static ToLongFunction<Iterable<EndpointActivation>> total(ToLongFunction<EndpointActivation> each) {
        return all -> {
            long total = 0;
            for (EndpointActivation a : all) {
                total += each.applyAsLong(a);
            }
            return total;
        };
    }

    @Override
    public Set<String> getNames() {
        return statistics.keySet();
    }

    @Override
    public Class<?> getType(String name) {
        Statistic s = statistics.get(name);
        return s == null ? null : s.type();
    }

    @Override
    public String getDescription(String name) {
        Statistic s = statistics.get(name);
        return s == null ? null : s.description();
    }

    @Override
    public String getDescription(String name, Locale locale) {
        return getDescription(name);
    }

    @Override
    public Object getValue(String name) {
        Statistic s = statistics.get(name);
        if (s == null) {
            return null;
        }
        long value = s.value().applyAsLong(activations.get());
        return s.type() == int.class ? (Object) (int) Math.min(Integer.MAX_VALUE, value) : (Object) value;
    }

    /** WildFly turns statistics off for a RAR that configures itself; the counters are cheap, so they stay on. */
    @Override
    public boolean isEnabled() {
        return enabled;
    }

    @Override
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** The counters belong to the activations (JMX shows them too); clearing here would make the two disagree. */
    @Override
    public void clear() {
        // nothing: see above
    }
}
