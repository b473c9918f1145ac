package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.InvalidPropertyException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.TransientFailureException;
import org.ssbjca.api.UnrecoverableMessageException;
import org.ssbjca.backend.DeadLetter;
import org.ssbjca.fakes.LogRecords;

/**
 * The failure policy (issue 47, point 1): exception classes named unrecoverable are dead-lettered at once, without
 * the retries {@code maxDeliveryAttempts} allows; transient ones are retried without counting; the api's exception
 * types say the same per failure, found anywhere in the cause chain (the EJB container wraps what a bean throws); the
 * dead letter carries the attempts and the failure's class and message. On H2 and PostgreSQL.
 */
class FailurePolicyTest {

    private static final Logger FIGURES = Logger.getLogger("org.ssbjca.figures");

    /** As WildFly's EJB container wraps what a CMT bean throws (an EJBException with the bean's as its cause). */
    static final class ContainerWrapper extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ContainerWrapper(Throwable cause) {
            super(cause);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void unrecoverableExceptionsAreDeadLetteredAtOnceWhileOthersFlow(String backend) throws Exception {
        try (LogRecords log = LogRecords.of(DeliverySteps.class);
                InboundHarness h = InboundBackends.harness(backend)) {
            Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
            List<String> delivered = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                String body = m.bodyAsText();
                calls.computeIfAbsent(body, b -> new AtomicInteger()).incrementAndGet();
                if (body.startsWith("unparsable")) {
                    throw new ContainerWrapper(new IllegalArgumentException("cannot parse " + body));
                }
                if (body.startsWith("refused")) {
                    throw new UnrecoverableMessageException("the order " + body + " is closed");
                }
                delivered.add(body);
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("2");
            spec.setMaxDeliveryAttempts("4");
            spec.setUnrecoverableExceptions(" java.lang.IllegalArgumentException , java.time.DateTimeException");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);

            for (int i = 0; i < 5; i++) {
                h.send("unparsable " + i);
                h.send("refused " + i);
                h.send("good " + i);
            }
            Awaitility.await("10 dead letters and 5 delivered").atMost(Duration.ofSeconds(60))
                    .until(() -> a.metrics().deadLettered() == 10 && delivered.size() == 5);

            long beanCalls = calls.entrySet().stream().filter(e -> !e.getKey().startsWith("good"))
                    .mapToInt(e -> e.getValue().get()).sum();
            FIGURES.info(backend + ": failure policy: 10 failing messages dead-lettered after " + beanCalls
                    + " bean calls (maxDeliveryAttempts 4 would have made 40)");
            assertEquals(10, beanCalls, "each failing message reached the bean once");
            List<DeadLetter> letters = InboundFeaturesTest.deadLetters(h);
            assertEquals(10, letters.size());
            for (DeadLetter d : letters) {
                String body = d.message().bodyAsText();
                assertEquals(1, d.attempts(), body + ": the one delivery really made, not maxDeliveryAttempts");
                String expected = body.startsWith("unparsable")
                        ? "java.lang.IllegalArgumentException: cannot parse " + body + " (thrown as "
                                + ContainerWrapper.class.getName() + ")"
                        : UnrecoverableMessageException.class.getName() + ": the order " + body + " is closed";
                assertEquals(expected, d.lastError(), "the failure's class and message travel with it");
                String names = "of conversation " + d.message().conversationId() + " (handle "
                        + d.message().conversationHandle() + " here)";
                assertEquals(1, log.messages(Level.WARNING, "SSBJCA0243").stream().filter(w -> w.contains(names))
                        .count(), "SSBJCA0243 names the conversation as SSBJCA0042 does: " + names);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void theDeadLetterAndItsLogLineCarryTheDeliveriesReallyMade(String backend) throws Exception {
        try (LogRecords log = LogRecords.of(BatchSorter.class);
                InboundHarness h = InboundBackends.harness(backend)) {
            List<String> seen = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                String body = m.bodyAsText();
                seen.add(body + " " + m.deliveryAttempt());
                if (body.equals("late") && m.deliveryAttempt() == 1) {
                    throw new IllegalStateException("a counted failure first");
                }
                throw new UnrecoverableMessageException(body + " cannot be processed");
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("2");
            spec.setMaxDeliveryAttempts("4");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);

            h.send("early");
            h.send("late");
            Awaitility.await("2 dead letters").atMost(Duration.ofSeconds(60))
                    .until(() -> a.metrics().deadLettered() == 2);

            Map<String, Integer> attempts = new ConcurrentHashMap<>();
            InboundFeaturesTest.deadLetters(h).forEach(d -> attempts.put(d.message().bodyAsText(), d.attempts()));
            assertEquals(Map.of("early", 1, "late", 2), attempts, "the deliveries the bean saw: " + seen);
            List<String> lines = log.messages(Level.WARNING, "SSBJCA0042");
            assertEquals(1, lines.stream().filter(l -> l.contains("failed 1 deliveries")).count(), lines.toString());
            assertEquals(1, lines.stream().filter(l -> l.contains("failed 2 deliveries")).count(), lines.toString());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void transientFailuresAreRetriedWithoutCountingAnAttempt(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
                LogRecords log = LogRecords.of(DeliverySteps.class)) {
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setTransientExceptions("java.net.ConnectException");
            List<Integer> attempts = attemptsUntilDelivered(h, spec, 6, left -> left % 2 == 0
                    ? new TransientFailureException("the stock service is down")
                    : new ContainerWrapper(new java.net.ConnectException("connection refused")));

            assertEquals(List.of(1, 1, 1, 1, 1, 1, 1), attempts,
                    "6 failures, none counted toward maxDeliveryAttempts 2");
            // the page: "SSBJCA0244 (DEBUG: a failure found transient)", one a failure
            List<String> found = log.messages(Level.FINE, "SSBJCA0244");
            assertEquals(6, found.size(), found.toString());
            assertTrue(found.stream().allMatch(m -> m.contains("is transient (failure policy)")), found.toString());
            assertTrue(found.stream().anyMatch(m -> m.contains("connection refused"))
                    && found.stream().anyMatch(m -> m.contains("the stock service is down")), found.toString());
        }
    }

    /**
     * A bean undeployed (or a server suspended) while its readers deliver: WildFly's proxy refuses each call without
     * calling the bean. Before, each refusal counted an attempt, and a redeploy under load dead-lettered healthy
     * messages (RedeployIT: 3 of 1,200 after three refusals each, {@code maxDeliveryAttempts} 3). Even a user's list
     * that names every {@code RuntimeException} unrecoverable does not set a refused message aside.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aCallTheContainerRefusedCountsNoAttempt(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setUnrecoverableExceptions("java.lang.RuntimeException");
            List<Integer> attempts = attemptsUntilDelivered(h, spec, 5,
                    left -> new org.jboss.as.ejb3.component.EJBComponentUnavailableException(
                            "WFLYEJB0421: Invocation cannot proceed as component is shutting down"));

            assertEquals(List.of(1, 1, 1, 1, 1, 1), attempts, "5 refusals, none counted toward maxDeliveryAttempts 2");
        }
    }

    /**
     * Sends one message to a bean, one reader, {@code maxDeliveryAttempts} 2 and what else {@code spec} says, that
     * fails its first {@code failures} calls and then takes the message.
     *
     * @param failure what a failing call throws, given the failing calls left after it
     * @return the delivery attempts the bean saw, the last one that of the call that took the message
     * @throws AssertionError if the message was dead-lettered instead
     */
    private static List<Integer> attemptsUntilDelivered(InboundHarness h, ServiceBrokerActivationSpec spec,
            int failures, java.util.function.IntFunction<RuntimeException> failure) throws Exception {
        AtomicInteger left = new AtomicInteger(failures);
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        List<String> delivered = new CopyOnWriteArrayList<>();
        BrokerMessageListener bean = m -> {
            attempts.add(m.deliveryAttempt());
            if (left.getAndDecrement() > 0) {
                throw failure.apply(left.get());
            }
            delivered.add(m.bodyAsText());
        };
        spec.setMaxReaders("1");
        spec.setMaxDeliveryAttempts("2");
        h.activate(BrokerMessageListener.class, bean, true, spec);
        EndpointActivation a = h.ra.activations().get(0);

        h.send("order");
        Awaitility.await("delivered or dead-lettered").atMost(Duration.ofSeconds(60))
                .until(() -> !delivered.isEmpty() || a.metrics().deadLettered() > 0);
        assertEquals(List.of("order"), delivered, "dead-lettered after " + attempts + ": "
                + InboundFeaturesTest.deadLetters(h));
        return attempts;
    }

    @Test
    void aContainersRefusalIsTransientWhateverTheListsSay() throws Exception {
        RuntimeException refusal = new org.jboss.as.ejb3.component.EJBComponentUnavailableException(
                "WFLYEJB0512: Server is suspended"); // WildFly's containerSuspended(), the same class
        FailurePolicy broad = FailurePolicy.of(ServiceBrokerActivationSpec.class, "java.lang.RuntimeException", "",
                getClass().getClassLoader());
        assertEquals(FailurePolicy.Verdict.TRANSIENT, broad.classify(refusal));
        assertEquals(FailurePolicy.Verdict.TRANSIENT, FailurePolicy.DEFAULT.classify(refusal));
        assertEquals(FailurePolicy.Verdict.TRANSIENT, broad.classify(new ContainerWrapper(refusal)),
                "the bean called another component that was stopping");
        assertEquals(FailurePolicy.Verdict.UNRECOVERABLE, broad.classify(new IllegalStateException()));
    }

    @Test
    void theApisTypesWinAndListedClassesMatchFromTheRootCauseOutward() throws Exception {
        FailurePolicy p = FailurePolicy.of(ServiceBrokerActivationSpec.class, "java.lang.IllegalArgumentException",
                "java.io.IOException", getClass().getClassLoader());
        assertEquals(FailurePolicy.Verdict.UNRECOVERABLE,
                p.classify(new ContainerWrapper(new NumberFormatException("x"))), "a subclass, wrapped");
        assertEquals(FailurePolicy.Verdict.TRANSIENT,
                p.classify(new IllegalArgumentException(new java.net.ConnectException())), "the root cause decides");
        assertEquals(FailurePolicy.Verdict.TRANSIENT, p.classify(new IllegalArgumentException(
                new ContainerWrapper(new TransientFailureException("down")))), "the bean's word decides first");
        assertEquals(FailurePolicy.Verdict.COUNTED, p.classify(new IllegalStateException()));
        assertEquals(FailurePolicy.Verdict.COUNTED, p.classify(null), "a rollback without an exception");
        RuntimeException loop = new RuntimeException();
        RuntimeException other = new RuntimeException(loop);
        loop.initCause(new IllegalStateException(other));
        assertEquals(FailurePolicy.Verdict.COUNTED, p.classify(other), "a cycle ends the chain");
    }

    @Test
    void badPolicyValuesFailTheDeploymentNamingThePropertyAndWhatItAccepts() throws Exception {
        ServiceBrokerActivationSpec jitter = spec();
        jitter.setRedeliveryJitter("1.5");
        InvalidPropertyException e = assertThrows(InvalidPropertyException.class, jitter::validate);
        assertEquals("ssb-jca activation property 'redeliveryJitter' must be a number between 0.0 and 1.0, was '1.5'",
                e.getMessage());

        ServiceBrokerActivationSpec spelling = spec();
        spelling.setTransientExceptions("java.net.ConnectException; java.io.IOException");
        e = assertThrows(InvalidPropertyException.class, spelling::validate);
        assertTrue(e.getMessage().startsWith("ssb-jca activation property 'transientExceptions' must be fully "
                + "qualified exception class names separated by commas"), e.getMessage());

        try (InboundHarness h = new InboundHarness()) {
            ServiceBrokerActivationSpec unknown = h.spec();
            unknown.setUnrecoverableExceptions("java.lang.IllegalArgumentException, com.example.NoSuchException");
            ResourceException refused = assertThrows(ResourceException.class,
                    () -> h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> { }, true, unknown));
            assertEquals("ssb-jca activation property 'unrecoverableExceptions' must list exception classes the "
                    + "application or the adapter can load (comma-separated fully qualified names), but "
                    + "'com.example.NoSuchException' was not found", refused.getMessage());

            ServiceBrokerActivationSpec notAnException = h.spec();
            notAnException.setTransientExceptions("java.lang.String");
            refused = assertThrows(ResourceException.class, () -> h.activate(BrokerMessageListener.class,
                    (BrokerMessageListener) m -> { }, true, notAnException));
            assertTrue(refused.getMessage().contains("'transientExceptions' must list exception classes (subclasses"
                    + " of java.lang.Throwable), but 'java.lang.String' is not one"), refused.getMessage());

            ServiceBrokerActivationSpec both = h.spec();
            both.setUnrecoverableExceptions("java.lang.IllegalArgumentException, java.net.ConnectException");
            both.setTransientExceptions("java.net.ConnectException");
            refused = assertThrows(ResourceException.class, () -> h.activate(BrokerMessageListener.class,
                    (BrokerMessageListener) m -> { }, true, both));
            assertTrue(refused.getMessage().contains("'transientExceptions' must not name a class that"
                    + " unrecoverableExceptions names, was 'java.net.ConnectException' in both"), refused.getMessage());
            assertEquals(0, h.ra.activations().size());
        }
    }

    /** An empty part is refused wherever it is, as the other list properties refuse one, on both specs. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"java.lang.IllegalArgumentException,", "java.lang.IllegalArgumentException,,"
            + "java.lang.IllegalStateException", ",java.lang.IllegalArgumentException", "java.lang.Error, "})
    void anEmptyPartFailsTheDeploymentNamingTheProperty(String text) throws Exception {
        ServiceBrokerActivationSpec queue = spec();
        queue.setUnrecoverableExceptions(text);
        InvalidPropertyException e = assertThrows(InvalidPropertyException.class, queue::validate);
        assertEquals("ssb-jca activation property 'unrecoverableExceptions' must be fully qualified exception class "
                + "names separated by commas (e.g. java.lang.IllegalArgumentException), was '" + text + "'",
                e.getMessage());
        org.ssbjca.inbound.table.TableActivationSpec table = new org.ssbjca.inbound.table.TableActivationSpec();
        table.setTransientExceptions(text);
        e = assertThrows(InvalidPropertyException.class, table::failurePolicy);
        assertTrue(e.getMessage().startsWith("ssb-jca activation property 'transientExceptions' must be fully "
                + "qualified"), e.getMessage());
    }

    @Test
    void jitterSpreadsTheDelayBothWays() throws Exception {
        RedeliveryPolicy p = new RedeliveryPolicy(1_000, 2, 3_000, 0.25);
        assertEquals(Duration.ofMillis(750), p.delayAfter(1, -1));
        assertEquals(Duration.ofMillis(1_250), p.delayAfter(1, 1));
        assertEquals(Duration.ofMillis(3_750), p.delayAfter(3, 1), "spread after the cap");
        ServiceBrokerActivationSpec spec = spec();
        spec.setRedeliveryDelay("1000");
        spec.setRedeliveryJitter("0.2");
        RedeliveryPolicy parsed = new ActivationValues(spec).redeliveryPolicy();
        assertEquals(0.2, parsed.jitter());
        for (int i = 0; i < 1000; i++) {
            long d = parsed.delayAfter(1).toMillis();
            assertTrue(d >= 800 && d <= 1200, d + " ms");
        }
        assertEquals(0, new ActivationValues(spec()).redeliveryPolicy().jitter(), "off by default");
    }

    private static ServiceBrokerActivationSpec spec() {
        ServiceBrokerActivationSpec spec = new ServiceBrokerActivationSpec();
        spec.setQueue("Q");
        return spec;
    }
}
