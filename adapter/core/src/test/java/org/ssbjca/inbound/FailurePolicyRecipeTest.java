package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.backend.DeadLetter;

/**
 * The recipe of docs/guide/failure-policy.md, read from the page and run as written: its activation properties on a
 * bean that fails as the recipe's would (a parse error, a refused connection to a service).
 */
class FailurePolicyRecipeTest {

    private static final Pattern PROPERTY = Pattern.compile(
            "propertyName\\s*=\\s*\"([^\"]+)\"\\s*,\\s*propertyValue\\s*=\\s*\"([^\"]*)\"");

    /** A connection refused by the stock service, wrapped as the EJB container wraps what a bean throws. */
    private static RuntimeException refused() {
        return new RuntimeException(new java.net.ConnectException("Connection refused"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void theRecipeRunsAsWritten(String backend) throws Exception {
        Map<String, String> recipe = recipe();
        assertEquals("java.lang.IllegalArgumentException, javax.xml.stream.XMLStreamException",
                recipe.get("unrecoverableExceptions"), "the recipe was read: " + recipe);
        try (InboundHarness h = InboundBackends.harness(backend)) {
            Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
            AtomicInteger outage = new AtomicInteger(2);
            List<String> delivered = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                String body = m.bodyAsText();
                calls.computeIfAbsent(body, b -> new AtomicInteger()).incrementAndGet();
                if (!body.startsWith("<order")) {
                    throw new IllegalArgumentException("cannot parse " + body);
                }
                if (body.contains("stock") && outage.getAndDecrement() > 0) {
                    throw refused();
                }
                delivered.add(body + " attempt " + m.deliveryAttempt());
            };
            ServiceBrokerActivationSpec spec = h.spec();
            apply(spec, recipe);
            spec.validate();
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);

            h.send("garbage 1");
            h.send("<order id='1' stock='low'/>");
            h.send("garbage 2");
            h.send("<order id='2'/>");
            Awaitility.await("two dead letters and two orders").atMost(Duration.ofSeconds(60))
                    .until(() -> a.metrics().deadLettered() == 2 && delivered.size() == 2);

            assertEquals(1, calls.get("garbage 1").get());
            assertEquals(1, calls.get("garbage 2").get());
            assertTrue(delivered.contains("<order id='1' stock='low'/> attempt 1"), delivered.toString());
            assertEquals("CLOSED", a.breaker().state().name());
            assertEquals(0, a.breaker().trips());
            for (DeadLetter d : InboundFeaturesTest.deadLetters(h)) {
                assertEquals("java.lang.IllegalArgumentException: cannot parse " + d.message().bodyAsText(),
                        d.lastError());
                assertEquals(1, d.attempts(), "the one delivery made");
            }
        }
    }

    /** @return the properties of the page's recipe, in order */
    static Map<String, String> recipe() throws Exception {
        String page = Files.readString(Path.of(System.getProperty("basedir", "."))
                .resolve("../../docs/guide/failure-policy.md"));
        int start = page.indexOf("```java");
        String block = page.substring(start, page.indexOf("```", start + 7));
        Map<String, String> properties = new LinkedHashMap<>();
        Matcher m = PROPERTY.matcher(block);
        while (m.find()) {
            properties.put(m.group(1), m.group(2));
        }
        return properties;
    }

    private static void apply(ServiceBrokerActivationSpec spec, Map<String, String> properties) throws Exception {
        for (Map.Entry<String, String> p : properties.entrySet()) {
            String setter = "set" + Character.toUpperCase(p.getKey().charAt(0)) + p.getKey().substring(1);
            try {
                ServiceBrokerActivationSpec.class.getMethod(setter, String.class).invoke(spec, p.getValue());
            } catch (InvocationTargetException e) {
                throw (Exception) e.getCause();
            }
        }
    }
}
