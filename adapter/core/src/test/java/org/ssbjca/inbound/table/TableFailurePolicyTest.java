package org.ssbjca.inbound.table;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ssbjca.api.TableRowListener;
import org.ssbjca.api.TransientFailureException;
import org.ssbjca.api.UnrecoverableMessageException;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.inbound.InboundHarness;

/**
 * The failure policy and the circuit breaker of table activations (issue 47, points 1 and 2): an unrecoverable row is
 * set aside at its first failure, a transient failure counts no attempt, and an outage opens the breaker, which a
 * success closes; while it is open its parked readers show in the MBean. Seed 003's job queue, on H2 and PostgreSQL,
 * in both modes.
 */
class TableFailurePolicyTest {

    private static final Logger FIGURES = Logger.getLogger("org.ssbjca.figures");

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"H2, transactional", "H2, leased", "PostgreSQL, transactional", "PostgreSQL, leased"})
    void unrecoverableRowsAreSetAsideAtOnceAndTransientFailuresCountNoAttempt(String kind, String mode)
            throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database(kind), false)) {
            TableActivationTest.createJobQueue(h);
            TableActivationTest.execute(h, "INSERT INTO Job_Queue (Priority, Payload) VALUES (1, 'unparsable'),"
                    + " (2, 'refused'), (3, 'outage'), (4, 'fine')");
            Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
            AtomicInteger outage = new AtomicInteger(4);
            List<String> delivered = new CopyOnWriteArrayList<>();
            TableRowListener bean = row -> {
                String p = row.payloadText();
                calls.computeIfAbsent(p, k -> new AtomicInteger()).incrementAndGet();
                switch (p) {
                    case "unparsable" -> throw new RuntimeException(new NumberFormatException("not a number"));
                    case "refused" -> throw new UnrecoverableMessageException("closed");
                    case "outage" -> {
                        if (outage.getAndDecrement() > 0) {
                            throw new TransientFailureException("down");
                        }
                    }
                    default -> { }
                }
                delivered.add(p + " " + row.attempt());
            };
            TableActivationSpec spec = TableActivationTest.jobSpec(h, mode);
            spec.setMaxAttempts("3");
            spec.setRetryDelaySeconds("0");
            spec.setPollMillis("50");
            spec.setUnrecoverableExceptions("java.lang.IllegalArgumentException");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean, true,
                    h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                TableActivation a = TableActivationTest.activation(h, factory);
                await().atMost(Duration.ofSeconds(60)).until(() -> delivered.size() == 2
                        && a.counts().setAside() == 2);
                assertEquals(1, calls.get("unparsable").get(), "set aside at its first failure");
                assertEquals(1, calls.get("refused").get(), "set aside at its first failure");
                assertEquals(5, calls.get("outage").get());
                assertTrue(delivered.contains("outage 1"), "4 transient failures, no attempt counted: " + delivered);
                assertEquals(2, TableActivationTest.count(h, "SELECT COUNT(*) FROM Job_Queue WHERE Attempts >= 3"));
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    /**
     * A table bean undeployed while its readers deliver: WildFly's proxy refuses the calls (its
     * {@code EJBComponentUnavailableException}, a double here) without calling the bean. The row keeps its attempts,
     * even with {@code maxAttempts} 2 and a list that names every {@code RuntimeException} unrecoverable.
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"H2, transactional", "H2, leased", "PostgreSQL, transactional", "PostgreSQL, leased"})
    void aRowWhoseCallsTheContainerRefusedKeepsItsAttempts(String kind, String mode) throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database(kind), false)) {
            TableActivationTest.createJobQueue(h);
            TableActivationTest.execute(h, "INSERT INTO Job_Queue (Priority, Payload) VALUES (1, 'order')");
            AtomicInteger refusals = new AtomicInteger(3);
            List<String> delivered = new CopyOnWriteArrayList<>();
            TableRowListener proxy = row -> {
                if (refusals.getAndDecrement() > 0) {
                    throw new org.jboss.as.ejb3.component.EJBComponentUnavailableException(
                            "WFLYEJB0421: Invocation cannot proceed as component is shutting down");
                }
                delivered.add(row.payloadText() + " " + row.attempt());
            };
            TableActivationSpec spec = TableActivationTest.jobSpec(h, mode);
            spec.setMaxAttempts("2");
            spec.setRetryDelaySeconds("0");
            spec.setPollMillis("50");
            spec.setUnrecoverableExceptions("java.lang.RuntimeException");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, proxy, true,
                    h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                TableActivation a = TableActivationTest.activation(h, factory);
                await().atMost(Duration.ofSeconds(60)).until(() -> !delivered.isEmpty() || a.counts().setAside() > 0);
                assertEquals(List.of("order 1"), delivered, "3 refusals, none counted; set aside: "
                        + a.counts().setAside());
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"H2, transactional", "H2, leased", "PostgreSQL, transactional", "PostgreSQL, leased"})
    void aRowSetAsideByThePolicySaysTheAttemptReallyMade(String kind, String mode) throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database(kind), false)) {
            TableActivationTest.createJobQueue(h);
            TableActivationTest.execute(h, "INSERT INTO Job_Queue (Priority, Payload) VALUES (1, 'closed')");
            AtomicInteger calls = new AtomicInteger();
            TableRowListener bean = row -> {
                if (calls.incrementAndGet() == 1) {
                    throw new IllegalStateException("a counted failure first");
                }
                throw new UnrecoverableMessageException("closed");
            };
            TableActivationSpec spec = TableActivationTest.jobSpec(h, mode);
            spec.setMaxAttempts("3");
            spec.setRetryDelaySeconds("0");
            spec.setPollMillis("50");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean, true,
                    h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                TableActivation a = TableActivationTest.activation(h, factory);
                await().atMost(Duration.ofSeconds(60)).until(() -> a.counts().setAside() == 1);
                assertEquals(2, calls.get());
                String last = a.lastError();
                assertTrue(last.endsWith("; set aside at its attempt 2 of 3 (failure policy)"), last);
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"H2", "PostgreSQL"})
    void anOutageOpensTheBreakerAndASuccessClosesIt(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database(kind), false)) {
            TableActivationTest.createJobQueue(h);
            StringBuilder rows = new StringBuilder();
            for (int i = 0; i < 20; i++) {
                rows.append(i == 0 ? "" : ", ").append("(1, 'job ").append(i).append("')");
            }
            TableActivationTest.execute(h, "INSERT INTO Job_Queue (Priority, Payload) VALUES " + rows);
            AtomicBoolean down = new AtomicBoolean(true);
            AtomicInteger failures = new AtomicInteger();
            List<String> delivered = new CopyOnWriteArrayList<>();
            TableRowListener bean = row -> {
                if (down.get()) {
                    failures.incrementAndGet();
                    throw new IllegalStateException("the database the bean writes to is down");
                }
                delivered.add(row.payloadText());
            };
            TableActivationSpec spec = TableActivationTest.jobSpec(h, "transactional");
            spec.setMaxReaders("2");
            spec.setMaxAttempts("10");
            // a failed row is held for 1 s, so a reader takes the next one: the failures are of different rows
            // however the two readers interleave (with no delay, one reader alone retried row 1 until it was set
            // aside, a single row's failures never opening the breaker)
            spec.setRetryDelaySeconds("1");
            spec.setPollMillis("50");
            spec.setBreakerThreshold("4");
            spec.setBreakerDelay("200");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean, true,
                    h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                TableActivation a = TableActivationTest.activation(h, factory);
                await().atMost(Duration.ofSeconds(30)).until(() -> a.breaker().trips() == 1);
                int atTrip = failures.get();
                await("a failed probe").atMost(Duration.ofSeconds(30)).until(() -> failures.get() > atTrip);
                javax.management.ObjectName name = org.ssbjca.management.ObjectNames.tableActivation(a.name());
                javax.management.MBeanServer jmx = java.lang.management.ManagementFactory.getPlatformMBeanServer();
                await("a reader parked by the open breaker, in the MBean").atMost(Duration.ofSeconds(30))
                        .until(() -> (Integer) jmx.getAttribute(name, "BreakerParkedReaders") >= 1);
                assertEquals(0, a.counts().setAside(), "nothing set aside");
                down.set(false);
                await().atMost(Duration.ofSeconds(60)).until(() -> delivered.size() == 20);
                assertEquals("CLOSED", a.breaker().state().name());
                assertEquals(0, jmx.getAttribute(name, "BreakerParkedReaders"));
                assertEquals(1, a.breaker().trips());
                FIGURES.info(kind + ": table breaker (threshold 4, 2 readers) opened after " + atTrip
                        + " failed deliveries; " + failures.get() + " in all");
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }
}
