package org.ssbjca.adapter;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
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
 * the queue activations running now (an undeployed bean's counts leave the sums; table activations are not in them,
 * they have their own MBean and meters). Counters are read from memory; what the
 * queues and databases hold through each activation's {@link QueueReadings} (its MBean's), at most every
 * {@value QueueReadings#MAX_AGE_MILLIS} ms. Only {@code long} and {@code int} values, the types WildFly exports as
 * metrics.
 */
final class AdapterStatistics implements StatisticsPlugin {

    private static final long serialVersionUID = 1L;

    private final transient Supplier<? extends Iterable<EndpointActivation>> activations;
    private final transient Function<EndpointActivation, QueueReadings> readings;
    private final transient Map<String, Statistic> statistics = new LinkedHashMap<>();
    private volatile boolean enabled = true;

    /** One statistic: its type, description and how it is read. */
    private record Statistic(Class<?> type, String description, ToLongFunction<Iterable<EndpointActivation>> value) {
    }

    AdapterStatistics(Supplier<? extends Iterable<EndpointActivation>> activations,
            Function<EndpointActivation, QueueReadings> readings) {
        this.activations = activations;
        this.readings = readings;
        add("Activations", int.class, "message-driven beans fed from queues whose readers run now (table activations"
                + " not included)", total(a -> 1));
        add("Readers", int.class, "readers over every queue activation (their MaxReaders), those waiting for a thread"
                + " included", total(EndpointActivation::readerCount));
        add("WaitingReaders", int.class, "of those, readers waiting for a thread of the work manager's long-running"
                + " pool: they read nothing until one frees", total(EndpointActivation::waitingReaders));
        add("ActiveReaders", int.class, "readers delivering now, over every queue activation (the activation MBeans'"
                + " ActiveReaders)", total(a -> a.metrics().inFlight().size()));
        add("ParkedReaders", int.class, "readers waiting for a paused activation to resume",
                total(EndpointActivation::parkedReaders));
        add("ReconnectingReaders", int.class, "readers waiting to reconnect (database unreachable, queue missing or"
                + " disabled)", total(a -> a.metrics().reconnectingReaders()));
        add("Reconnects", long.class, "times a reader failed and waited to connect again",
                total(a -> a.metrics().reconnects()));
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
        add("DeliveriesTimed", long.class, "committed deliveries, timed (the count of DeliveryMillisTotal)",
                total(a -> a.metrics().timedDeliveries()));
        add("DeliveryMillisTotal", long.class, "time the timed deliveries took (bean and commit), milliseconds",
                total(a -> Math.round(a.metrics().totalDeliveryMillis())));
        String read = " (read at most every " + QueueReadings.MAX_AGE_MILLIS / 1000 + " s; -1 when a database"
                + " cannot be read)";
        add("QueueDepth", long.class, "messages waiting in the activations' queues" + read,
                queues(QueueReadings.Reading::depth, Long::sum));
        add("OldestMessageAgeSeconds", long.class, "age of the oldest message in the activations' queues, 0 when"
                + " they are empty" + read, queues(QueueReadings.Reading::oldestAgeSeconds, Math::max));
        add("PendingConversationGroups", long.class, "conversation groups with messages in the activations' queues"
                + read, queues(QueueReadings.Reading::pendingGroups, Long::sum));
        add("DeadLetters", long.class, "messages of the activations' queues waiting in the dead-letter table" + read,
                queues(QueueReadings.Reading::deadLetters, Long::sum));
        add("ConversationEndpoints", long.class, "conversation endpoints in the activations' databases, closed ones"
                + " (CD) left out" + read, databases(r -> open(r.endpoints())));
        add("StaleConversationEndpoints", long.class, "of those, endpoints begun over "
                + QueueReadings.STALE_AFTER.toHours() + " h ago: the leak detector" + read,
                databases(r -> open(r.staleEndpoints())));
        add("TransmissionQueueDepth", long.class, "messages in the databases' transmission queues" + read,
                databases(QueueReadings.Reading::transmissionQueue));
    }

    private static long open(java.util.List<org.ssbjca.backend.EndpointCount> endpoints) {
        return endpoints.stream().filter(e -> !"CD".equals(e.state()))
                .mapToLong(org.ssbjca.backend.EndpointCount::count).sum();
    }

    /** @return a value of each queue combined, each queue once (two beans on one queue), -1 if one is unreadable */
    private ToLongFunction<Iterable<EndpointActivation>> queues(ToLongFunction<QueueReadings.Reading> each,
            java.util.function.LongBinaryOperator combine) {
        return all -> combined(all, a -> a.database().source().config() + "/" + a.queue(), each, combine);
    }

    /** @return a value of each database summed, each database once, -1 if one is unreadable */
    private ToLongFunction<Iterable<EndpointActivation>> databases(ToLongFunction<QueueReadings.Reading> each) {
        return all -> combined(all, a -> String.valueOf(a.database().source().config()), each, Long::sum);
    }

    private long combined(Iterable<EndpointActivation> all, Function<EndpointActivation, String> key,
            ToLongFunction<QueueReadings.Reading> each, java.util.function.LongBinaryOperator combine) {
        long result = 0;
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (EndpointActivation a : all) {
            if (!seen.add(key.apply(a))) {
                continue;
            }
            try {
                result = combine.applyAsLong(result, each.applyAsLong(readings.apply(a).get()));
            } catch (IllegalStateException unreadable) {
                return -1;
            }
        }
        return result;
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
