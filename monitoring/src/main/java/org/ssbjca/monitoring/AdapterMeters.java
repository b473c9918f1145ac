package org.ssbjca.monitoring;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanServerDelegate;
import javax.management.MBeanServerNotification;
import javax.management.Notification;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;

/**
 * Registers the adapter's numbers in WildFly's Micrometer registry, which its {@code micrometer} subsystem exports
 * (at {@code /prometheus} on the management port with a Prometheus registry): per activation (tags
 * {@code activation}, {@code queue}) and per database (tag {@code database}; endpoints also by {@code service} and
 * {@code state}). Meters follow the activations' MBeans as beans are deployed and undeployed. Every value is read
 * from the MBeans when the registry is scraped; the database readings behind some are kept a few seconds by the
 * adapter, so a scrape never costs more than a handful of queries whatever its rate.
 *
 * <p>Meters are registered with the registry's own methods ({@code gauge}, {@code more().counter},
 * {@code more().timer}): WildFly's per-deployment registry passes those to the exported registry with the
 * deployment's tag, and keeps builder-registered meters to itself. Names therefore carry their unit.
 */
@ApplicationScoped
public class AdapterMeters implements NotificationListener {

    /** How often the per-database tables (endpoints by service and state, transmission queues) are read. */
    static final long TABLES_SECONDS = 5;

    /** A meter, as the registry's search finds it again for removal. */
    private record Key(String name, Tags tags) {
    }

    private static final Logger LOG = Logger.getLogger(AdapterMeters.class.getName());

    private final AdapterMBeans mbeans;
    private final Clock clock;
    private final Map<ObjectName, List<Key>> meters = new ConcurrentHashMap<>();
    private final Map<Key, AtomicReference<Double>> tableRows = new ConcurrentHashMap<>();

    @Inject
    MeterRegistry registry;

    @Resource
    ManagedScheduledExecutorService scheduler;

    private ScheduledFuture<?> tables;

    /** The meters of the adapter's MBeans on the platform MBean server. */
    public AdapterMeters() {
        this(new AdapterMBeans(), Clock.systemUTC());
    }

    /**
     * @param mbeans where the adapter's MBeans are
     * @param clock the time the ages are measured to
     */
    AdapterMeters(AdapterMBeans mbeans, Clock clock) {
        this.mbeans = mbeans;
        this.clock = clock;
    }

    void start(@Observes @Initialized(ApplicationScoped.class) Object application) throws InstanceNotFoundException {
        follow();
        tables = scheduler.scheduleWithFixedDelay(this::readTablesSafely, 0, TABLES_SECONDS, TimeUnit.SECONDS);
    }

    /** Registers the meters of the activations there are, and follows their MBeans' registrations from now on. */
    void follow() throws InstanceNotFoundException {
        mbeans.server().addNotificationListener(MBeanServerDelegate.DELEGATE_NAME, this, null, null);
        mbeans.activations().forEach(this::add);
        mbeans.tableActivations().forEach(this::addTable);
    }

    @PreDestroy
    void stop() {
        if (tables != null) {
            tables.cancel(false);
        }
        try {
            mbeans.server().removeNotificationListener(MBeanServerDelegate.DELEGATE_NAME, this);
        } catch (javax.management.JMException e) {
            // never added
        }
        meters.keySet().forEach(this::remove);
        tableRows.keySet().forEach(this::removeMeter);
        tableRows.clear();
    }

    @Override
    public void handleNotification(Notification notification, Object handback) {
        if (notification instanceof MBeanServerNotification n) {
            boolean queue = AdapterMBeans.ACTIVATIONS.apply(n.getMBeanName());
            boolean table = AdapterMBeans.TABLE_ACTIVATIONS.apply(n.getMBeanName());
            if (MBeanServerNotification.REGISTRATION_NOTIFICATION.equals(n.getType()) && (queue || table)) {
                if (queue) {
                    add(n.getMBeanName());
                } else {
                    addTable(n.getMBeanName());
                }
            } else if (MBeanServerNotification.UNREGISTRATION_NOTIFICATION.equals(n.getType()) && (queue || table)) {
                remove(n.getMBeanName());
            }
        }
    }

    /** The counters of an activation: meter name, MBean attribute. */
    private static final String[][] COUNTERS = {
        {"ssb.messages.received", "Received"},
        {"ssb.messages.delivered", "Delivered"},
        {"ssb.deliveries.committed", "Committed"},
        {"ssb.deliveries.rolled.back", "RolledBack"},
        {"ssb.messages.redelivered", "Redelivered"},
        {"ssb.messages.dead.lettered", "DeadLettered"},
        {"ssb.errors.received", "ErrorsReceived"},
        {"ssb.priority.requests.rejected", "PriorityRequestsRejected"},
        {"ssb.reader.reconnects", "Reconnects"},
        {"ssb.activation.breaker.trips", "BreakerTrips"},
    };

    /** The gauges of an activation read straight from an attribute: meter name, MBean attribute. */
    private static final String[][] GAUGES = {
        {"ssb.readers.max", "MaxReaders"},
        {"ssb.readers.waiting", "WaitingReaders"},
        {"ssb.readers.active", "ActiveReaders"},
        {"ssb.readers.parked", "ParkedReaders"},
        {"ssb.readers.breaker.parked", "BreakerParkedReaders"},
        {"ssb.readers.reconnecting", "ReconnectingReaders"},
        {"ssb.activation.paused", "Paused"},
        {"ssb.activation.breaker.open", "BreakerOpen"},
        {"ssb.queue.disabled", "QueueDisabled"},
        {"ssb.queue.depth", "QueueDepth"},
        {"ssb.queue.oldest.message.age.seconds", "OldestMessageAgeSeconds"},
        {"ssb.conversation.groups.pending", "PendingConversationGroupCount"},
        {"ssb.dead.letters", "DeadLetterCount"},
    };

    /** Registers one activation's meters. */
    void add(ObjectName activation) {
        Tags tags = Tags.of("activation", AdapterMBeans.activationName(activation),
                "queue", String.valueOf(mbeans.text(activation, "Queue")));
        List<Key> keys = new ArrayList<>();
        for (String[] c : COUNTERS) {
            registry.more().counter(c[0], tags, activation, a -> mbeans.number(a, c[1]));
            keys.add(new Key(c[0], tags));
        }
        for (String[] g : GAUGES) {
            registry.gauge(g[0], tags, activation, a -> mbeans.number(a, g[1]));
            keys.add(new Key(g[0], tags));
        }
        registry.gauge("ssb.readers.failing.seconds", tags, activation, this::failingSeconds);
        keys.add(new Key("ssb.readers.failing.seconds", tags));
        registry.gauge("ssb.delivery.time.p99.seconds", tags, activation,
                a -> mbeans.number(a, "P99DeliveryMillis") / 1000);
        keys.add(new Key("ssb.delivery.time.p99.seconds", tags));
        registry.more().timer("ssb.delivery", tags, activation, a -> (long) mbeans.number(a, "TimedDeliveries"),
                a -> mbeans.number(a, "TotalDeliveryMillis"), TimeUnit.MILLISECONDS);
        keys.add(new Key("ssb.delivery", tags));
        List<Key> previous = meters.put(activation, keys);
        if (previous != null) {
            previous.stream().filter(k -> !keys.contains(k)).forEach(this::removeMeter);
        }
    }

    /** The counters of a table activation: meter name, MBean attribute. */
    private static final String[][] TABLE_COUNTERS = {
        {"ssb.table.rows.delivered", "DeliveredRows"},
        {"ssb.table.deliveries.failed", "FailedDeliveries"},
        {"ssb.table.leases.lost", "LeasesLost"},
    };

    /**
     * The gauges of a table activation: meter name, MBean attribute. Each row count is one statement on the table per
     * scrape (the MBean reads it at each call).
     */
    private static final String[][] TABLE_GAUGES = {
        {"ssb.table.readers", "ReaderCount"},
        {"ssb.table.readers.waiting", "WaitingReaders"},
        {"ssb.table.rows.available", "AvailableRows"},
        {"ssb.table.rows.waiting", "WaitingRows"},
        {"ssb.table.rows.leased", "LeasedRows"},
        {"ssb.table.rows.set.aside", "SetAsideRows"},
        {"ssb.table.oldest.row.age.seconds", "OldestAvailableAgeSeconds"},
        {"ssb.table.breaker.open", "BreakerOpen"},
        {"ssb.table.readers.breaker.parked", "BreakerParkedReaders"},
    };

    /** Registers one table activation's meters (tags: activation, table). */
    void addTable(ObjectName activation) {
        Tags tags = Tags.of("activation", AdapterMBeans.activationName(activation), "table",
                String.valueOf(mbeans.text(activation, "Table")));
        List<Key> keys = new ArrayList<>();
        for (String[] c : TABLE_COUNTERS) {
            registry.more().counter(c[0], tags, activation, a -> mbeans.number(a, c[1]));
            keys.add(new Key(c[0], tags));
        }
        for (String[] g : TABLE_GAUGES) {
            registry.gauge(g[0], tags, activation, a -> mbeans.number(a, g[1]));
            keys.add(new Key(g[0], tags));
        }
        registry.gauge("ssb.table.readers.failing.seconds", tags, activation, this::failingSeconds);
        keys.add(new Key("ssb.table.readers.failing.seconds", tags));
        List<Key> previous = meters.put(activation, keys);
        if (previous != null) {
            previous.stream().filter(k -> !keys.contains(k)).forEach(this::removeMeter);
        }
    }

    /** Removes one activation's meters. */
    void remove(ObjectName activation) {
        List<Key> keys = meters.remove(activation);
        if (keys != null) {
            keys.forEach(this::removeMeter);
        }
    }

    private void removeMeter(Key key) {
        registry.find(key.name()).tags(key.tags()).meters().forEach(registry::remove);
    }

    private double failingSeconds(ObjectName activation) {
        Object since = mbeans.get(activation, "FailingSince");
        return since instanceof Date d ? Math.max(0, (clock.millis() - d.getTime()) / 1000.0) : 0;
    }

    /** A failure must not end the schedule (an executor drops a task that threw): logged, tried again. */
    private void readTablesSafely() {
        try {
            readTables();
        } catch (RuntimeException e) {
            LOG.log(java.util.logging.Level.WARNING, "reading the databases' endpoints for the metrics"
                    + " failed; trying again in " + TABLES_SECONDS + " s", e);
        }
    }

    /**
     * Reads each database's endpoints and transmission queue once (through one of its activations): a gauge per
     * database, and per database, service and state; a row that is gone is removed.
     */
    void readTables() {
        Map<String, ObjectName> databases = new LinkedHashMap<>();
        for (ObjectName a : mbeans.activations()) {
            String database = mbeans.text(a, "Backend");
            if (database != null) {
                databases.putIfAbsent(database, a);
            }
        }
        Map<Key, Double> rows = new LinkedHashMap<>();
        long now = clock.millis();
        databases.forEach((database, activation) -> {
            double queue = mbeans.number(activation, "TransmissionQueueDepth");
            if (!Double.isNaN(queue)) {
                rows.put(new Key("ssb.transmission.queue.depth", Tags.of("database", database)), queue);
            }
            double stuck = mbeans.number(activation, "StuckTransmissionCount");
            if (!Double.isNaN(stuck)) {
                rows.put(new Key("ssb.transmission.queue.stuck", Tags.of("database", database)), stuck);
            }
            if (mbeans.get(activation, "ConversationEndpoints") instanceof CompositeData[] endpoints) {
                for (CompositeData row : endpoints) {
                    Tags tags = Tags.of("database", database, "service", (String) row.get("service"), "state",
                            (String) row.get("state"));
                    rows.put(new Key("ssb.conversation.endpoints", tags), ((Number) row.get("count")).doubleValue());
                    if (row.get("oldestBegun") instanceof Date begun) {
                        rows.put(new Key("ssb.conversation.endpoints.oldest.age.seconds", tags),
                                Math.max(0, (now - begun.getTime()) / 1000.0));
                    }
                }
            }
        });
        rows.forEach((key, value) -> tableRows.computeIfAbsent(key, k -> {
            AtomicReference<Double> holder = new AtomicReference<>(value);
            registry.gauge(k.name(), k.tags(), holder, AtomicReference::get);
            return holder;
        }).set(value));
        for (Key gone : new ArrayList<>(tableRows.keySet())) {
            if (!rows.containsKey(gone)) {
                tableRows.remove(gone);
                removeMeter(gone);
            }
        }
    }
}
