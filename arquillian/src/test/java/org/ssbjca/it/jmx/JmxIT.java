package org.ssbjca.it.jmx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.management.Attribute;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.Notification;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import org.awaitility.Awaitility;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.it.app.BrokerObjects;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.IronJacamar;
import org.ssbjca.it.support.RemoteJmx;

/**
 * The adapter's MBeans as an operator uses them: from outside the server, over WildFly's management port
 * ({@code service:jmx:remote+http}), with no class of the adapter on this side (attributes and results are open
 * types). Test beans in a deployment of their own, on an in-memory H2 broker; a driver MBean in that deployment sends
 * their messages and reports what they saw.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the redelivery test last: it dead-letters on FailingBean too
class JmxIT {

    private static final long DEADLINE_MILLIS = 60_000;

    private static RemoteJmx jmx;
    private static MBeanServerConnection server;
    private static JmxItDriverMXBean driver;

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive rar() {
        return Deployments.rar(IronJacamar.h2InMemory("jmx-it"));
    }

    @Deployment(name = "beans", order = 2, testable = false)
    static JavaArchive beans() {
        return Deployments.ejbJar("jmx-it.jar", JmxItSetup.class, JmxItSender.class, JmxItDriverMXBean.class,
                JmxItDriver.class, DeliveryRecorder.class, ConcurrencyBean.class, PauseBean.class,
                PriorityBean.class, FailingBean.class, BrokerObjects.class);
    }

    @BeforeAll
    static void connect() throws Exception {
        jmx = RemoteJmx.connect();
        server = jmx.server();
        driver = JMX.newMXBeanProxy(server, new ObjectName(JmxItDriverMXBean.NAME), JmxItDriverMXBean.class);
    }

    @AfterAll
    static void disconnect() throws Exception {
        if (jmx != null) {
            jmx.close();
        }
    }

    @Test
    void theResourceAdapterMBeanListsVersionBackendAndActivations() throws Exception {
        ObjectName ra = new ObjectName("org.ssbjca:type=ResourceAdapter");

        assertEquals("0.1.0", server.getAttribute(ra, "Version"));
        CompositeData[] backends = (CompositeData[]) server.getAttribute(ra, "Backends");
        assertEquals(1, backends.length, Arrays.toString(backends));
        assertEquals("H2", backends[0].get("kind"));
        assertTrue(((String) backends[0].get("database")).contains("jdbc:h2:mem:jmx-it"));
        List<String> activations = Arrays.asList((String[]) server.getAttribute(ra, "Activations"));
        assertEquals(List.of("ConcurrencyBean@JmxConcurrencyQueue", "FailingBean@JmxFailingQueue",
                "PauseBean@JmxPauseQueue", "PriorityBean@JmxPriorityQueue"), activations);
        ObjectName[] names = (ObjectName[]) server.getAttribute(ra, "ActivationObjectNames");
        assertEquals(new HashSet<>(List.of(activation(ConcurrencyBean.QUEUE, "ConcurrencyBean"),
                activation(FailingBean.QUEUE, "FailingBean"), activation(PauseBean.QUEUE, "PauseBean"),
                activation(PriorityBean.QUEUE, "PriorityBean"))), new HashSet<>(Arrays.asList(names)));
        assertEquals(names.length, server.queryNames(new ObjectName("org.ssbjca:type=Activation,*"), null).size());
    }

    @Test
    void raisingMaxReadersRaisesConcurrency() throws Exception {
        ObjectName bean = activation(ConcurrencyBean.QUEUE, "ConcurrencyBean");
        String queue = ConcurrencyBean.QUEUE;
        assertEquals(1, server.getAttribute(bean, "MaxReaders"));
        driver.hold(queue);
        try {
            for (int i = 0; i < 4; i++) {
                driver.send("JmxConcurrencyService", "c" + i);
            }
            await(() -> driver.concurrent(queue) == 1 && (int) server.getAttribute(bean, "ActiveReaders") == 1,
                    "one delivery in progress");
            Awaitility.await("one reader: one delivery at a time, three messages wait")
                    .during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(30)).until(() -> driver.peak(queue) == 1);

            server.setAttribute(bean, new Attribute("MaxReaders", 4));

            assertEquals(4, server.getAttribute(bean, "MaxReaders"));
            await(() -> driver.concurrent(queue) == 4 && (int) server.getAttribute(bean, "ActiveReaders") == 4,
                    "four deliveries at once");
            CompositeData[] inFlight = (CompositeData[]) server.getAttribute(bean, "InFlightDeliveries");
            assertEquals(4, inFlight.length);
            HashSet<Object> groups = new HashSet<>();
            for (CompositeData d : inFlight) {
                groups.add(d.get("conversationGroup"));
                assertEquals(1, d.get("messages"));
            }
            assertEquals(4, groups.size(), "four conversation groups in work at once");
        } finally {
            driver.release(queue);
        }
        await(() -> driver.delivered(queue).size() == 4 && driver.concurrent(queue) == 0, "all four delivered");
        await(() -> (long) server.getAttribute(bean, "Committed") == 4, "four commits");
        assertEquals(0L, server.getAttribute(bean, "QueueDepth"));
        server.setAttribute(bean, new Attribute("MaxReaders", 1));
        assertEquals(1, server.getAttribute(bean, "MaxReaders"));
    }

    @Test
    void pauseStopsDeliveriesAndResumeRestartsThem() throws Exception {
        ObjectName bean = activation(PauseBean.QUEUE, "PauseBean");
        String queue = PauseBean.QUEUE;
        long deliveredBefore = (long) server.getAttribute(bean, "Delivered");

        server.invoke(bean, "pause", null, null);

        assertEquals(true, server.getAttribute(bean, "Paused"));
        await(() -> server.getAttribute(bean, "ParkedReaders").equals(server.getAttribute(bean, "MaxReaders")),
                "every reader parked");
        for (int i = 0; i < 3; i++) {
            driver.send("JmxPauseService", "p" + i);
        }
        assertEquals(3L, server.getAttribute(bean, "QueueDepth"));
        Awaitility.await("paused: nothing delivered").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(30))
                .until(() -> driver.delivered(queue).isEmpty());
        assertEquals(3L, server.getAttribute(bean, "QueueDepth"));
        assertEquals(deliveredBefore, server.getAttribute(bean, "Delivered"));

        server.invoke(bean, "resume", null, null);

        assertEquals(false, server.getAttribute(bean, "Paused"));
        await(() -> driver.delivered(queue).size() == 3, "delivered after resume");
        assertEquals(new HashSet<>(List.of("p0", "p1", "p2")), new HashSet<>(driver.delivered(queue)));
        await(() -> (long) server.getAttribute(bean, "Delivered") == deliveredBefore + 3
                && (long) server.getAttribute(bean, "QueueDepth") == 0, "counted, queue empty");
    }

    @Test
    void setPriorityChangesTheOrderInWhichGroupsAreProcessed() throws Exception {
        ObjectName bean = activation(PriorityBean.QUEUE, "PriorityBean");
        String queue = PriorityBean.QUEUE;
        driver.hold(queue);
        List<String> waiting = new ArrayList<>();
        try {
            driver.send("JmxPriorityService", "blocker");
            await(() -> driver.concurrent(queue) == 1, "the one reader holds the blocker");
            CompositeData[] inFlight = (CompositeData[]) server.getAttribute(bean, "InFlightDeliveries");
            assertEquals(1, inFlight.length);
            String blockerGroup = (String) inFlight[0].get("conversationGroup");
            for (int i = 1; i <= 5; i++) {
                driver.send("JmxPriorityService", "g" + i);
            }
            for (CompositeData g : waitingGroups(bean, blockerGroup)) {
                assertEquals(1L, g.get("messages"));
                assertNull(g.get("priority"));
                assertTrue(g.get("oldestMessage") instanceof java.util.Date);
                waiting.add((String) g.get("groupId"));
            }
            assertEquals(5, waiting.size(), "five groups wait besides the one in delivery");

            setPriority(bean, waiting.get(4), 200);
            setPriority(bean, waiting.get(2), 100);

            Object[] priorities = waitingGroups(bean, blockerGroup).stream().map(g -> g.get("priority")).toArray();
            assertArrayEquals(new Object[] {200, 100, null, null, null}, priorities,
                    "listed in the order the reader takes them: the prioritised groups first");
            List<Object> listed = waitingGroups(bean, blockerGroup).stream().map(g -> g.get("groupId")).toList();
            assertEquals(List.of(waiting.get(4), waiting.get(2), waiting.get(0), waiting.get(1), waiting.get(3)),
                    listed, "then the others in arrival order");
        } finally {
            driver.release(queue);
        }
        await(() -> driver.delivered(queue).size() == 6, "all delivered");
        assertEquals(List.of("blocker", "g5", "g3", "g1", "g2", "g4"), driver.delivered(queue),
                "highest priority first, then the others in arrival order");
        await(() -> ((CompositeData[]) server.getAttribute(bean, "PendingConversationGroups")).length == 0,
                "nothing pending");
    }

    @Test
    void aDeadLetterIsNotifiedToARemoteListenerAndCanBeListedAndPurged() throws Exception {
        ObjectName bean = activation(FailingBean.QUEUE, "FailingBean");
        List<Notification> got = new CopyOnWriteArrayList<>();
        NotificationListener listener = (n, handback) -> got.add(n);
        server.addNotificationListener(bean, listener, null, null);
        try {
            driver.send("JmxFailingService", "poison");

            await(() -> got.stream().anyMatch(n -> n.getType().equals("org.ssbjca.message.deadLettered")),
                    "a dead-letter notification");
        } finally {
            server.removeNotificationListener(bean, listener);
        }
        Notification n = got.stream().filter(x -> x.getType().equals("org.ssbjca.message.deadLettered"))
                .findFirst().orElseThrow();
        CompositeData data = (CompositeData) n.getUserData();
        assertEquals(FailingBean.QUEUE, data.get("queue"));
        assertEquals(1, data.get("attempts"));
        assertEquals(1L, server.getAttribute(bean, "DeadLettered"));
        CompositeData[] letters = (CompositeData[]) server.invoke(bean, "listDeadLetters", new Object[] {10},
                new String[] {"int"});
        assertEquals(1, letters.length);
        assertEquals("poison", letters[0].get("body"));
        assertEquals(1, server.invoke(bean, "purgeDeadLetters", null, null));
        assertEquals(0, ((CompositeData[]) server.invoke(bean, "listDeadLetters", new Object[] {10},
                new String[] {"int"})).length);
        assertFalse(((String) server.getAttribute(bean, "LastError")).isEmpty());
    }

    /**
     * A dead letter delivered again over remote JMX while the reader waits in a 20 s RECEIVE: the call wakes the
     * reader and returns with the outcome at once, instead of after the reader's WaitTimeout.
     */
    @Test
    @Order(Integer.MAX_VALUE)
    void redeliverDeadLetterWakesAReaderInALongWaitAndReturnsAtOnce() throws Exception {
        ObjectName bean = activation(FailingBean.QUEUE, "FailingBean");
        server.setAttribute(bean, new Attribute("WaitTimeout", 20_000L));
        try {
            driver.send("JmxFailingService", "second chance");
            await(() -> ((CompositeData[]) server.invoke(bean, "listDeadLetters", new Object[] {10},
                    new String[] {"int"})).length == 1, "dead-lettered");
            CompositeData letter = ((CompositeData[]) server.invoke(bean, "listDeadLetters", new Object[] {10},
                    new String[] {"int"}))[0];
            assertEquals("second chance", letter.get("body"));
            await(() -> (int) server.getAttribute(bean, "ActiveReaders") == 0
                    && (long) server.getAttribute(bean, "QueueDepth") == 0, "the reader waits in its RECEIVE");

            long start = System.nanoTime();
            Object delivered = server.invoke(bean, "redeliverDeadLetter", new Object[] {letter.get("id")},
                    new String[] {"long"});
            long tookMillis = (System.nanoTime() - start) / 1_000_000;

            assertEquals(true, delivered);
            assertEquals(List.of("second chance"), driver.delivered(FailingBean.QUEUE));
            // a third of the 20 s WAITFOR it must not wait for; a delivery and its commits fit many times over
            assertTrue(tookMillis < 6_000, "redeliverDeadLetter took " + tookMillis + " ms with WaitTimeout 20000");
        } finally {
            server.setAttribute(bean, new Attribute("WaitTimeout", 1_000L));
        }
    }

    /**
     * @return the pending groups in the order the reader takes them, without the group being delivered (on H2 and
     * PostgreSQL its
     *         messages still count until the delivery's RECEIVE commits)
     */
    private static List<CompositeData> waitingGroups(ObjectName bean, String inDelivery) throws Exception {
        return Arrays.stream((CompositeData[]) server.getAttribute(bean, "PendingConversationGroups"))
                .filter(g -> !g.get("groupId").equals(inDelivery)).collect(java.util.stream.Collectors.toList());
    }

    private static void setPriority(ObjectName bean, String group, int priority) throws Exception {
        server.invoke(bean, "setPriority", new Object[] {group, priority},
                new String[] {String.class.getName(), "int"});
    }

    private static ObjectName activation(String queue, String bean) throws Exception {
        return new ObjectName("org.ssbjca:type=Activation,name=" + bean + "@" + queue);
    }

    /** Waits up to a minute: the server shares two cores with other builds. */
    private static void await(Callable<Boolean> condition, String what) {
        Awaitility.await(what).atMost(Duration.ofMillis(DEADLINE_MILLIS)).until(condition);
    }
}
