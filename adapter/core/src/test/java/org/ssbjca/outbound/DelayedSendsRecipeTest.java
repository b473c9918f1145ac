package org.ssbjca.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.api.ScheduledSend;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.backend.SentBy;
import org.ssbjca.backend.TestAdmin;
import org.ssbjca.backend.Validation;
import org.ssbjca.docs.Docs;
import org.ssbjca.fakes.TestXid;

/**
 * docs/guide/delayed-sends.md: the page's recipe, its bean compiled as written (with the imports a source file has,
 * and stand-ins for the EJB annotations), given the connection factory as the container injects it, on H2. A
 * reminder scheduled in a JTA transaction that rolls back is never sent; one scheduled outside arrives no earlier than
 * its due time; one cancelled ("paid") never arrives, and a second cancel, like a cancel after the send, is false.
 */
class DelayedSendsRecipeTest {

    private static final String REMINDER = "//shop/Reminder";

    @Test
    void theRecipesReminderArrivesAfterItsDelayUnlessPaidOrRolledBack(@TempDir Path dir) throws Exception {
        try (OutboundFixture fx = new OutboundFixture()) {
            try (Connection c = fx.db.source().open()) {
                TestAdmin admin = TestAdmin.of(fx.db.broker(), c);
                admin.createMessageType(REMINDER, Validation.NONE);
                admin.createContract("//shop/Orders", Map.of(REMINDER, SentBy.INITIATOR));
                admin.createService("//shop/Shop", "InitiatorQueue");
                admin.createService("//shop/Customer", OutboundFixture.TARGET_QUEUE, "//shop/Orders");
                c.commit();
            }
            LazyEnlistmentTest.EnlistingConnectionManager cm = new LazyEnlistmentTest.EnlistingConnectionManager();
            ServiceBrokerConnectionFactoryImpl factory = new ServiceBrokerConnectionFactoryImpl(fx.mcf(), cm);
            Object bean = recipe(dir, factory);
            Method remind = bean.getClass().getMethod("remind", Conversation.class, String.class, Duration.class);
            Method paid = bean.getClass().getMethod("paid", ScheduledSend.class);
            Conversation order;
            try (ServiceBrokerConnection c = factory.getConnection()) {
                order = c.beginDialog("//shop/Shop", "//shop/Customer", "//shop/Orders");
            }

            Xid xid = TestXid.next("reminder");
            fx.boot.transactions().begin(xid);
            cm.transaction = xid;
            remind.invoke(bean, order, "rolled back", Duration.ZERO);
            cm.transaction = null;
            fx.boot.transactions().end();
            XAResource xa = cm.enlisted.get(0).getXAResource();
            xa.end(xid, XAResource.TMSUCCESS);
            xa.rollback(xid);

            ScheduledSend paidInTime = (ScheduledSend) remind.invoke(bean, order, "paid in time", Duration.ZERO);
            assertTrue((Boolean) paid.invoke(bean, paidInTime), "pending: cancelled");
            assertFalse((Boolean) paid.invoke(bean, paidInTime), "cancelled already");
            ScheduledSend reminder = (ScheduledSend) remind.invoke(bean, order, "please pay order 42",
                    Duration.ofMillis(500));

            List<String> got = new ArrayList<>();
            Instant arrived = null;
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            try (ServiceBrokerConnection c = factory.getConnection()) {
                while (!got.contains("please pay order 42") && System.nanoTime() < deadline) {
                    for (BrokerMessage m : c.receive(ReceiveRequest.from(OutboundFixture.TARGET_QUEUE).top(10)
                            .timeout(Duration.ofSeconds(5)))) {
                        got.add(new String(m.body(), StandardCharsets.UTF_8));
                        arrived = Instant.now();
                    }
                }
            }
            assertEquals(List.of("please pay order 42"), got, "neither the rolled-back nor the paid reminder");
            assertFalse(arrived.isBefore(reminder.dueAt()), arrived + " is before " + reminder.dueAt());
            assertFalse((Boolean) paid.invoke(bean, reminder), "sent already");
        }
    }

    /** The page's bean, compiled as written and given the connection factory as {@code @Resource} injects it. */
    private static Object recipe(Path dir, ServiceBrokerConnectionFactoryImpl factory) throws Exception {
        String section = Docs.section("docs/guide/delayed-sends.md", "## Recipe: a reminder from an EJB");
        int start = section.indexOf("```java\n") + "```java\n".length();
        String code = section.substring(start, section.indexOf("```", start));
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(src.resolve("Reminders.java"), "import jakarta.annotation.Resource;\n"
                + "import jakarta.ejb.Stateless;\nimport java.nio.charset.StandardCharsets;\n"
                + "import java.time.Duration;\nimport org.ssbjca.api.*;\n" + code);
        Files.writeString(Files.createDirectories(src.resolve("jakarta/ejb")).resolve("Stateless.java"),
                "package jakarta.ejb; public @interface Stateless { }");
        Files.writeString(Files.createDirectories(src.resolve("jakarta/annotation")).resolve("Resource.java"),
                "package jakarta.annotation; public @interface Resource { String lookup() default \"\"; }");
        Path out = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, System.err, "-d", out.toString(), "-cp", System.getProperty("java.class.path"),
                src.resolve("Reminders.java").toString(), src.resolve("jakarta/ejb/Stateless.java").toString(),
                src.resolve("jakarta/annotation/Resource.java").toString());
        assertEquals(0, rc, "the recipe compiles");
        URLClassLoader loader = new URLClassLoader(new java.net.URL[] {out.toUri().toURL()},
                DelayedSendsRecipeTest.class.getClassLoader());
        Object bean = loader.loadClass("Reminders").getConstructor().newInstance();
        Field broker = bean.getClass().getDeclaredField("broker");
        broker.setAccessible(true);
        broker.set(bean, factory);
        return bean;
    }
}
