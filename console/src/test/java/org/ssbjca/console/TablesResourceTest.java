package org.ssbjca.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.Json;
import java.lang.management.ManagementFactory;
import java.util.List;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The set-aside rows' groups, search, group redelivery and throttled re-queue as the console's JSON API gives them:
 * each call goes to the table activation's MXBean operation of that name (here a stand-in with the adapter's
 * signatures) and returns what it returned.
 */
class TablesResourceTest {

    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();
    private static final String NAME = "JobBean@Job_Queue";

    private final Table table = new Table();
    private ObjectName name;

    /** A set-aside group as the adapter's {@code SetAsideGroupInfo} shows it. */
    public static final class Group {
        /** @return the shape */
        public String getKey() {
            return "java.lang.IllegalStateException: order <n> not found";
        }

        /** @return the count */
        public long getCount() {
            return 2;
        }

        /** @return the first keys */
        public List<String> getSampleKeys() {
            return List.of("1", "2");
        }
    }

    /** A re-queue job's progress as the adapter's {@code RedeliveryJobInfo} shows it (in part). */
    public static final class Job {
        /** @return the state */
        public String getState() {
            return "RUNNING";
        }

        /** @return the rate */
        public double getMessagesPerSecond() {
            return 2;
        }
    }

    /** The operations of the adapter's {@code TableActivationMXBean} the console calls. */
    public interface TableMXBean {
        Job startSetAsideGroupRequeue(String key, int scanMax, double rowsPerSecond);

        Job startSetAsideRequeue(String[] keys, double rowsPerSecond);

        Job getRequeueJob();

        boolean cancelRequeue();

        List<Group> listSetAsideGroups(int scanMax);

        List<String> searchSetAside(String text, int scanMax);

        int redeliverSetAsideGroup(String key, int scanMax);
    }

    /** Remembers what it was asked. */
    public static final class Table implements TableMXBean {
        String asked;

        @Override
        public List<Group> listSetAsideGroups(int scanMax) {
            asked = "groups " + scanMax;
            return List.of(new Group());
        }

        @Override
        public List<String> searchSetAside(String text, int scanMax) {
            asked = "search " + text + " " + scanMax;
            return List.of("3");
        }

        @Override
        public Job startSetAsideGroupRequeue(String key, int scanMax, double rowsPerSecond) {
            asked = "requeue group " + key + " " + scanMax + " " + rowsPerSecond;
            return new Job();
        }

        @Override
        public Job startSetAsideRequeue(String[] keys, double rowsPerSecond) {
            asked = "requeue " + String.join(",", keys) + " " + rowsPerSecond;
            return new Job();
        }

        @Override
        public Job getRequeueJob() {
            return new Job();
        }

        @Override
        public boolean cancelRequeue() {
            asked = "cancel";
            return true;
        }

        @Override
        public int redeliverSetAsideGroup(String key, int scanMax) {
            asked = "redeliver " + key + " " + scanMax;
            return 2;
        }
    }

    @BeforeEach
    void register() throws Exception {
        name = new ObjectName("org.ssbjca:type=TableActivation,name=" + ObjectName.quote(NAME));
        SERVER.registerMBean(table, name);
    }

    @AfterEach
    void unregister() throws Exception {
        SERVER.unregisterMBean(name);
    }

    @Test
    void setAsideGroupsSearchAndAGroupsRedeliveryGoToTheMxBean() {
        TablesResource r = new TablesResource();
        assertEquals("[{\"count\":2,\"key\":\"java.lang.IllegalStateException: order <n> not found\","
                + "\"sampleKeys\":[\"1\",\"2\"]}]", r.groups(NAME, 10_000).toString());
        assertEquals("groups 10000", table.asked);
        assertEquals("[\"3\"]", r.search(NAME, "deadlock", 50).toString());
        assertEquals("search deadlock 50", table.asked);
        assertEquals("{\"redelivered\":2}", r.redeliverGroup(NAME, Json.createObjectBuilder()
                .add("group", "java.lang.IllegalStateException: order <n> not found").build()).toString());
        assertEquals("redeliver java.lang.IllegalStateException: order <n> not found 10000", table.asked);
    }

    @Test
    void aGroupOrChosenRowsAreReQueuedAtARateFollowedAndCancelled() {
        TablesResource r = new TablesResource();
        String job = "{\"messagesPerSecond\":2.0,\"state\":\"RUNNING\"}";
        assertEquals(job, r.requeue(NAME, Json.createObjectBuilder().add("group", "g").add("perSecond", 2)
                .build()).toString());
        assertEquals("requeue group g 10000 2.0", table.asked);
        assertEquals(job, r.requeue(NAME, Json.createObjectBuilder().add("keys", Json.createArrayBuilder()
                .add("4").add("3")).add("perSecond", 0.5).build()).toString());
        assertEquals("requeue 4,3 0.5", table.asked);
        assertEquals(job, r.currentRequeue(NAME).toString());
        assertEquals("{\"cancelled\":true}", r.cancelRequeue(NAME).toString());
        assertEquals("cancel", table.asked);
    }
}
