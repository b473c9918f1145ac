package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.DueTime;
import org.ssbjca.backend.SentBy;
import org.ssbjca.backend.TestAdmin;
import org.ssbjca.backend.Validation;
import org.ssbjca.conformance.PostgresServer;

/**
 * Two nodes on one PostgreSQL or H2 database (two brokers, each with its own housekeeping pass and two readers) while
 * 30 scheduled sends come due at once: each is sent by one pass only, so each is received exactly once.
 */
class ScheduledSendNodesTest {

    private static final int SENDS = 30;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void twoNodesSendEachScheduledSendOnce(String backend) throws Exception {
        ConnectionSource source = new ConnectionSource(backend.equals("H2")
                ? new DatabaseConfig("jdbc:h2:mem:scheduled_nodes-" + java.util.UUID.randomUUID()
                        + ";DB_CLOSE_DELAY=-1", "sa", "")
                : PostgresServer.get().newDatabase("scheduled_nodes"));
        PortableBroker first = broker(source);
        PortableBroker second = broker(source);
        ExecutorService readers = Executors.newFixedThreadPool(4);
        Map<String, AtomicInteger> received = new ConcurrentHashMap<>();
        AtomicInteger total = new AtomicInteger();
        try {
            try (Connection c = source.open()) {
                first.prepareSchema(c, true);
                TestAdmin admin = TestAdmin.of(first, c);
                admin.createMessageType("Request", Validation.NONE);
                admin.createContract("Contract", Map.of("Request", SentBy.ANY));
                admin.createQueue("Q1");
                admin.createQueue("Q2");
                admin.createService("S1", "Q1");
                admin.createService("S2", "Q2", "Contract");
                c.commit();
            }
            Instant due = Instant.now().plusSeconds(2);
            try (Connection c = source.open()) {
                BrokerSession s = first.session(c);
                for (int i = 0; i < SENDS; i++) {
                    Conversation d = s.beginDialog("S1", "S2", "Contract", DialogOptions.defaults());
                    s.scheduleSend(d.handle(), "Request", ("s" + i).getBytes(StandardCharsets.UTF_8),
                            DueTime.at(due));
                }
                c.commit();
                s.afterCompletion(true);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
            List<Future<?>> running = new ArrayList<>();
            for (PortableBroker node : List.of(first, second, first, second)) {
                running.add(readers.submit(() -> {
                    try (Connection c = source.open()) {
                        BrokerSession s = node.session(c);
                        // until all arrived and 3 s more passed, in which a second copy would arrive
                        while (System.nanoTime() < deadline
                                && (total.get() < SENDS || Instant.now().isBefore(due.plusSeconds(5)))) {
                            for (BrokerMessage m : s.receive(ReceiveRequest.from("Q2").timeout(
                                    Duration.ofMillis(500)))) {
                                received.computeIfAbsent(new String(m.body(), StandardCharsets.UTF_8),
                                        k -> new AtomicInteger()).incrementAndGet();
                                total.incrementAndGet();
                            }
                            c.commit();
                            s.afterCompletion(true);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            readers.shutdownNow();
            first.close();
            second.close();
        }
        assertEquals(SENDS, received.size(), "every send received: " + received.keySet());
        received.forEach((body, n) -> assertEquals(1, n.get(), body + " received " + n.get() + " times"));
        assertEquals(SENDS, total.get());
    }

    private static PortableBroker broker(ConnectionSource source) {
        return new PortableBroker(source, BackgroundRunner.daemonThreads(), new PortableOptions(200, 100,
                Clock.systemUTC()));
    }
}
