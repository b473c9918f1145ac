package org.ssbjca.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.UUID;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.ContainerController;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.as.controller.client.helpers.Operations;
import org.jboss.dmr.ModelNode;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.it.beans.AttemptLog;
import org.ssbjca.it.beans.BreakerService;
import org.ssbjca.it.beans.ConsoleRecordingService;
import org.ssbjca.it.beans.ConsoleTableService;
import org.ssbjca.it.beans.Recorder;
import org.ssbjca.it.support.BrokerDb;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.IronJacamar;
import org.ssbjca.it.support.LogStore;
import org.ssbjca.it.support.ManualServer;
import org.ssbjca.it.support.Postgres;
import org.ssbjca.it.support.ServerAdmin;

/**
 * Issue 13: the console's JSON API as the curl recipes of docs/operations/console.md use it, on a WildFly with two
 * application users ({@code add-user.sh -a}): one in role {@code ssb-viewer}, one in {@code ssb-operator}. Checks the
 * login, the roles (a viewer may look, not act), the header that protects against cross-site request forgery, a refused
 * value, and seed 000's reordering: with the bean's one reader paused, three conversation groups are put in a new order
 * through the API, and after resume the reader takes them in that order. Then a viewer's event stream ({@code
 * api/events}) announces the dead letter a poison message becomes, and an operator purges it.
 */
@ExtendWith(ArquillianExtension.class)
class ConsoleIT {

    private static final Logger FIGURES = Logger.getLogger("org.ssbjca.figures");
    private static final String QUEUE = ConsoleRecordingService.QUEUE;
    private static final String ACTIVATION = "ConsoleRecordingService@" + QUEUE;
    private static final String[] VIEWER = {"console-viewer", "viewer-Pw-" + UUID.randomUUID()};
    private static final String[] OPERATOR = {"console-operator", "operator-Pw-" + UUID.randomUUID()};
    private static final Pattern GROUP = Pattern.compile("\"groupId\":\"([0-9a-fA-F-]{36})\"");
    private static Postgres pg;
    private static final String CHROMIUM = "/usr/bin/chromium";
    private static final String CHROMEDRIVER = "/usr/bin/chromedriver";
    private static final String API_ACTIVATION = "api/activations/"
            + URLEncoder.encode(ACTIVATION, StandardCharsets.UTF_8);
    /** The browser's drag events, as a mouse drag of the third group onto the first one fires them. */
    private static final String DRAG_THIRD_TO_TOP = "const items = document.querySelectorAll('#groups li');"
            + " const dt = new DataTransfer();"
            + " items[2].dispatchEvent(new DragEvent('dragstart', {bubbles: true, dataTransfer: dt}));"
            + " items[0].dispatchEvent(new DragEvent('dragover', {bubbles: true, cancelable: true, dataTransfer: dt}));"
            + " items[0].dispatchEvent(new DragEvent('drop', {bubbles: true, cancelable: true, dataTransfer: dt}));"
            + " items[2].dispatchEvent(new DragEvent('dragend', {bubbles: true, dataTransfer: dt}));";

    @ArquillianResource
    ContainerController controller;

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "console-rar", order = 1, managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static ResourceAdapterArchive rar() {
        pg = Postgres.get();
        return Deployments.rar(IronJacamar.descriptor(pg.jdbcUrl(), pg.user(), pg.password()).xml());
    }

    @Deployment(name = "console-beans", order = 2, managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static WebArchive beans() {
        return Deployments.testWar("console-it.war", ConsoleRecordingService.class, Recorder.class,
                ConsoleTableService.class);
    }

    /** A bean whose breaker a test opens for real: deployed by that test alone, so the others see one activation. */
    @Deployment(name = "console-breaker", order = 4, managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static WebArchive breakerBean() {
        return Deployments.testWar("console-breaker-it.war", BreakerService.class, AttemptLog.class, Recorder.class);
    }

    @Deployment(name = "console", order = 3, managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static WebArchive console() {
        return ShrinkWrap.create(ZipImporter.class, "ssb-jca-console.war")
                .importFrom(Path.of(System.getProperty("ssb.it.consoleWar")).toFile()).as(WebArchive.class);
    }

    @Test
    @RunAsClient
    void theApiNeedsALoginLetsOnlyOperatorsActAndReordersTheGroups() throws Exception {
        BrokerDb db = start();
        try {
            String activation = API_ACTIVATION;

            assertEquals(401, call("GET", null, "api/activations", null, true).statusCode(), "a login is needed");
            HttpResponse<String> list = call("GET", VIEWER, "api/activations", null, false);
            assertEquals(200, list.statusCode());
            assertTrue(list.body().contains("\"name\":\"" + ACTIVATION + "\""), list.body());
            assertTrue(call("GET", VIEWER, "api/me", null, false).body().contains("\"operator\":false"));
            assertTrue(call("GET", OPERATOR, "api/me", null, false).body().contains("\"operator\":true"));
            HttpResponse<String> page = call("GET", VIEWER, "", null, false);
            assertEquals(200, page.statusCode());
            assertTrue(page.body().contains("<title>ssb-jca console</title>"), page.body());

            assertEquals(403, call("POST", VIEWER, activation + "/pause", null, true).statusCode(),
                    "a viewer may not act");
            HttpResponse<String> forged = call("POST", OPERATOR, activation + "/pause", null, false);
            assertEquals(403, forged.statusCode(), "no X-SSB-Console header: refused");
            assertTrue(forged.body().contains("X-SSB-Console"), forged.body());
            HttpResponse<String> refused = call("PUT", OPERATOR, activation + "/max-readers", "{\"value\":0}", true);
            assertEquals(400, refused.statusCode());
            assertTrue(refused.body().contains("MaxReaders must be between 1 and 256"), refused.body());

            HttpResponse<String> paused = call("POST", OPERATOR, activation + "/pause", null, true);
            assertEquals(200, paused.statusCode(), paused.body());
            assertTrue(paused.body().contains("\"paused\":true"), paused.body());
            await("the reader parked").atMost(Duration.ofSeconds(30))
                    .until(() -> call("GET", VIEWER, activation, null, false).body().contains("\"parkedReaders\":1"));

            String run = "console-" + UUID.randomUUID();
            db.send(QUEUE, run, 3, 2);
            List<String> listed = new ArrayList<>();
            await("three pending groups").atMost(Duration.ofSeconds(30)).until(() -> {
                listed.clear();
                Matcher m = GROUP.matcher(call("GET", VIEWER, activation + "/groups", null, false).body());
                while (m.find()) {
                    listed.add(m.group(1));
                }
                return listed.size() == 3;
            });
            // one group's priority set: it comes first in the list the answer gives (the order below then re-sets all)
            HttpResponse<String> prioritised = call("PUT", OPERATOR, activation + "/groups/" + listed.get(1)
                    + "/priority", "{\"priority\": 200}", true);
            assertEquals(200, prioritised.statusCode(), prioritised.body());
            Matcher firstListed = GROUP.matcher(prioritised.body());
            assertTrue(firstListed.find() && firstListed.group(1).equals(listed.get(1)), prioritised.body());
            assertEquals("[]", call("GET", VIEWER, activation + "/in-flight", null, false).body(), "paused: none");
            HttpResponse<String> unknown = call("GET", VIEWER, "api/activations/NoSuchBean%40NoSuchQueue", null,
                    false);
            assertEquals(404, unknown.statusCode(), unknown.body());
            assertTrue(unknown.body().contains("no activation NoSuchBean@NoSuchQueue"), unknown.body());
            List<String> wanted = List.of(listed.get(2), listed.get(0), listed.get(1));
            String order = "[\"" + String.join("\",\"", wanted) + "\"]";
            assertEquals(403, call("PUT", VIEWER, activation + "/groups/order", order, true).statusCode());
            HttpResponse<String> reordered = call("PUT", OPERATOR, activation + "/groups/order", order, true);
            assertEquals(200, reordered.statusCode(), reordered.body());
            List<String> after = new ArrayList<>();
            Matcher m = GROUP.matcher(reordered.body());
            while (m.find()) {
                after.add(m.group(1));
            }
            assertEquals(wanted, after, "the pending groups listed in the new order: " + reordered.body());

            assertEquals(200, call("POST", OPERATOR, activation + "/resume", null, true).statusCode());
            await("all six recorded").atMost(Duration.ofSeconds(60)).until(() -> db.count(
                    "SELECT COUNT(*) FROM it_record WHERE body LIKE ?", "%|" + run + "%") == 6);
            List<String> recorded = db.texts("SELECT body FROM it_record WHERE body LIKE ? ORDER BY id",
                    "%|" + run + "%");
            LinkedHashSet<String> taken = new LinkedHashSet<>();
            for (String r : recorded) {
                taken.add(r.substring(0, r.indexOf('|')));
            }
            assertEquals(wanted, new ArrayList<>(taken), "the reader took the groups in the order set: " + recorded);
            assertEquals("[]", call("GET", VIEWER, activation + "/dead-letters", null, false).body());

            // live notifications: a viewer's event stream sees the dead letter a poison message becomes
            List<String> events = new java.util.concurrent.CopyOnWriteArrayList<>();
            HttpRequest stream = HttpRequest.newBuilder(URI.create(base() + "api/events"))
                    .header("Authorization", basic(VIEWER)).header("Accept", "text/event-stream").build();
            java.util.concurrent.CompletableFuture<HttpResponse<java.util.stream.Stream<String>>> subscribed =
                    HttpClient.newHttpClient().sendAsync(stream, HttpResponse.BodyHandlers.ofLines());
            subscribed.thenAccept(r -> r.body().forEach(events::add));
            await("subscribed").atMost(Duration.ofSeconds(30)).until(() -> hasEvent(events, "hello"));
            db.sendOne(QUEUE, "poison-" + run);
            await("the dead letter announced").atMost(Duration.ofSeconds(60))
                    .until(() -> hasEvent(events, "org.ssbjca.message.deadLettered"));
            String announced = events.stream().filter(e -> e.startsWith("data:") && e.contains("deadLettered"))
                    .findFirst().orElse(events.toString());
            assertTrue(announced.contains(ACTIVATION), announced);
            String listedLetters = call("GET", VIEWER, activation + "/dead-letters", null, false).body();
            assertTrue(listedLetters.contains("poison-" + run), "listed: " + listedLetters);
            Matcher id = Pattern.compile("\"id\":(\\d+)").matcher(listedLetters);
            assertTrue(id.find(), listedLetters);
            assertEquals("[]", call("GET", VIEWER, activation + "/dead-letters?after=" + id.group(1), null, false)
                    .body(), "the page after the last id is empty");
            // the filters of console.md: another message type, and younger than the hour asked for, touch none
            assertEquals("{\"redelivered\":0}", call("POST", OPERATOR, activation
                    + "/dead-letters/redeliver?messageType=NoSuchType&max=10", null, true).body());
            assertEquals("{\"purged\":0}", call("DELETE", OPERATOR, activation + "/dead-letters?olderThanMinutes=60",
                    null, true).body());
            HttpResponse<String> purged = call("DELETE", OPERATOR, activation + "/dead-letters", null, true);
            assertEquals("{\"purged\":1}", purged.body());

            // issue 14: conversation hygiene, fire-and-forget to a queue no bean reads
            String leak = "ItConsoleLeakQueue";
            db.declare(leak).fireAndForget(leak, 2);
            String conversations = call("GET", VIEWER, activation + "/conversations?olderThanMinutes=0", null, false)
                    .body();
            assertTrue(Pattern.compile("\\{\"count\":2,\"oldestBegun\":\"[^\"]+\",\"service\":\"" + leak
                    + "Service\",\"state\":\"DI\"}").matcher(conversations).find(), conversations);
            String end = "{\"service\":\"" + leak + "Service\",\"state\":\"DI\",\"olderThanMinutes\":0,\"max\":2}";
            assertEquals(403, call("POST", VIEWER, activation + "/conversations/end", end, true).statusCode());
            HttpResponse<String> badState = call("POST", OPERATOR, activation + "/conversations/end",
                    end.replace("\"DI\"", "\"XX\""), true);
            assertEquals(400, badState.statusCode());
            assertTrue(badState.body().contains("state must be one of [CO, DI, DO, ER, SI, SO], was XX"),
                    badState.body());
            assertEquals("{\"ended\":2}", call("POST", OPERATOR, activation + "/conversations/end", end, true).body());
            assertFalse(call("GET", VIEWER, activation + "/conversations", null, false).body()
                    .contains(leak + "Service\",\"state\":\"DI\""), "ended");
            // issue 16: a table activation's rows set aside, redelivered and purged
            db.execute("INSERT INTO " + ConsoleTableService.TABLE + " (body) VALUES ('bad 1'), ('bad 2')");
            String tables = await("two rows set aside").atMost(Duration.ofSeconds(60)).until(
                    () -> call("GET", VIEWER, "api/tables", null, false).body(), b -> b.contains("\"setAsideRows\":2"));
            assertTrue(tables.contains("\"name\":\"ConsoleTableService@" + ConsoleTableService.TABLE + "\""), tables);
            String table = "api/tables/ConsoleTableService%40" + ConsoleTableService.TABLE;
            assertEquals(403, call("POST", VIEWER, table + "/set-aside/redeliver", null, true).statusCode());
            assertEquals("{\"redelivered\":2}", call("POST", OPERATOR, table + "/set-aside/redeliver", null, true)
                    .body());
            await("set aside again after their next failure").atMost(Duration.ofSeconds(60)).until(
                    () -> call("GET", VIEWER, "api/tables", null, false).body().contains("\"setAsideRows\":2"));
            assertEquals(403, call("DELETE", VIEWER, table + "/set-aside", null, true).statusCode());
            assertEquals("{\"purged\":2}", call("DELETE", OPERATOR, table + "/set-aside", null, true).body());
            assertEquals(0, db.count("SELECT COUNT(*) FROM " + ConsoleTableService.TABLE));
            // the table's readers failing (the table renamed away) show with what failed, and since when
            String away = ConsoleTableService.TABLE + "_away";
            db.execute("ALTER TABLE " + ConsoleTableService.TABLE + " RENAME TO " + away);
            Pattern failing = Pattern.compile("\"failingSince\":\"[^\"]+\",\"lastError\":\"(?:[^\"\\\\]|\\\\.)*"
                    + ConsoleTableService.TABLE, Pattern.CASE_INSENSITIVE);
            String whileMissing = await("the table's readers failing").atMost(Duration.ofSeconds(60)).until(
                    () -> call("GET", VIEWER, "api/tables", null, false).body(), b -> failing.matcher(b).find());
            db.execute("ALTER TABLE " + away + " RENAME TO " + ConsoleTableService.TABLE);
            await("reading again").atMost(Duration.ofSeconds(60)).until(() -> call("GET", VIEWER, "api/tables", null,
                    false).body().contains("\"failingSince\":null"));

            subscribed.cancel(true);
            FIGURES.info("console API: 401 without login, 403 for a viewer's and for a header-less change, 400 for"
                    + " MaxReaders 0; groups listed " + listed + ", reordered " + wanted + ", taken " + taken
                    + "; a table's readers failing: " + whileMissing);
        } finally {
            stop();
        }
    }

    /**
     * Issue 44: every endpoint that takes a JSON body, sent every kind of malformed body (not JSON, JSON of another
     * type, a field missing, a field of another type, empty), answers 400 {@code {"error": "expected ..."}} naming
     * the body it takes, never 500; and every change the operator makes through the API is logged once
     * ({@code SSBJCA0150}) naming the console's user, the request and the answer.
     */
    @Test
    @RunAsClient
    void everyMalformedBodyIs400NamingWhatWasExpectedAndChangesNameTheirUser() throws Exception {
        start();
        try {
            String group = API_ACTIVATION + "/groups/" + UUID.randomUUID() + "/priority";
            String maxReaders = "{\"value\": n}, n a whole number from 1 to 256";
            String order = "a JSON array of 1 to 255 conversation group ids (strings)";
            String priority = "{\"priority\": n}, n a whole number from 0 to 255";
            String end = "{\"service\": \"<service>\", \"state\": \"<state>\", \"olderThanMinutes\": n,"
                    + " \"max\": n}, n whole numbers";
            List<String> notJson = List.of("four", "{\"value\": 4", "<priority>4</priority>", "", " ");
            String[][] walk = {
                {"PUT", API_ACTIVATION + "/max-readers", maxReaders, "[4]", "\"4\"", "4", "null", "true", "{}",
                    "{\"values\": 4}", "{\"value\": \"4\"}", "{\"value\": 2.5}", "{\"value\": true}",
                    "{\"value\": null}", "{\"value\": 4294967297}", "{\"value\": [4]}"},
                {"PUT", API_ACTIVATION + "/groups/order", order, "{\"a\": 1}", "\"g\"", "4", "null", "[]",
                    "[1]", "[null]", "[[\"g\"]]", "[{\"id\": \"g\"}]"},
                {"PUT", group, priority, "[200]", "200", "\"200\"", "null", "{}", "{\"value\": 200}",
                    "{\"priority\": \"200\"}", "{\"priority\": 20.5}", "{\"priority\": false}"},
                {"POST", API_ACTIVATION + "/conversations/end", end, "[]", "\"DI\"", "null", "{}",
                    "{\"service\": \"s\", \"state\": \"DI\", \"olderThanMinutes\": 0}",
                    "{\"state\": \"DI\", \"olderThanMinutes\": 0, \"max\": 1}",
                    "{\"service\": 1, \"state\": \"DI\", \"olderThanMinutes\": 0, \"max\": 1}",
                    "{\"service\": \"s\", \"state\": [\"DI\"], \"olderThanMinutes\": 0, \"max\": 1}",
                    "{\"service\": \"s\", \"state\": \"DI\", \"olderThanMinutes\": \"0\", \"max\": 1}",
                    "{\"service\": \"s\", \"state\": \"DI\", \"olderThanMinutes\": 0, \"max\": 1.5}"},
            };
            List<String> wrong = new ArrayList<>();
            int sent = 0;
            for (String[] endpoint : walk) {
                List<String> bodies = new ArrayList<>(notJson);
                bodies.addAll(List.of(endpoint).subList(3, endpoint.length));
                for (String body : bodies) {
                    sent++;
                    HttpResponse<String> r = call(endpoint[0], OPERATOR, endpoint[1], body, true);
                    String error = r.body();
                    if (r.statusCode() != 400 || !error.startsWith("{\"error\":\"expected ")
                            || !error.contains(endpoint[2].replace("\"", "\\\""))) {
                        wrong.add(endpoint[0] + " " + endpoint[1] + " [" + body + "] -> " + r.statusCode() + " "
                                + error);
                    }
                }
            }
            assertEquals(List.of(), wrong, "each answered 400 naming the body expected (" + sent + " sent)");

            // the operator's changes, done and refused, logged with the user's name
            HttpResponse<String> set = call("PUT", OPERATOR, API_ACTIVATION + "/max-readers", "{\"value\": 2}", true);
            assertEquals(200, set.statusCode(), set.body());
            assertEquals(200, call("POST", OPERATOR, API_ACTIVATION + "/pause", null, true).statusCode());
            String logged = "SSBJCA0150: console user " + OPERATOR[0] + ": PUT /activations/"
                    + URLEncoder.encode(ACTIVATION, StandardCharsets.UTF_8)
                    + "/max-readers {\"value\":2}, answered 200";
            await("the change logged with its user").atMost(Duration.ofSeconds(30))
                    .until(() -> LogStore.serverLogLines(logged) == 1);
            await("the pause logged with its user").atMost(Duration.ofSeconds(30)).until(() -> LogStore
                    .serverLogLines("SSBJCA0150: console user " + OPERATOR[0] + ": POST /activations/") >= 1);
            assertEquals(sent, LogStore.serverLogLines("SSBJCA0150: console user " + OPERATOR[0] + ": ")
                    - 2, "each refused change logged once as well");
            FIGURES.info("console API: " + sent + " malformed bodies on 4 endpoints, each 400 naming the body"
                    + " expected; the operator's changes logged: " + logged);
        } finally {
            stop();
        }
    }

    /**
     * The page in a real browser (headless Chromium): an operator sees a dead letter announced live (no reload) and
     * its body, a {@code <script>} and an {@code <img onerror>}, shown as text and never run; pauses the bean with
     * the page's button, drags the third pending group to the top of the list (the browser's drag events on the
     * list items), and after Resume the reader takes the groups in the dragged order, while the page's Delivered
     * counter moves; the state badge is "paused", then "running", and the charts of the activation and of all of
     * them hold a delivered rate above 0, as the history recipe of docs/operations/console.md does; once the bean's
     * fault is gone the dead letter, selected, is redelivered from the page; a viewer's page has every control that
     * acts disabled, and a request it sends is refused.
     */
    @Test
    @RunAsClient
    void thePageShowsLiveEscapesAndReordersByDragAndDrop() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of(CHROMEDRIVER)) && Files.isExecutable(Path.of(CHROMIUM)),
                "needs Debian's chromium and chromium-driver packages (" + CHROMIUM + ", " + CHROMEDRIVER
                        + "), which .ci/run installs: apt-get install chromium chromium-driver");
        BrokerDb db = start();
        WebDriver operator = browser(OPERATOR);
        WebDriver viewer = null;
        try {
            new WebDriverWait(operator, Duration.ofSeconds(30)).withMessage(() -> "the page says: "
                    + operator.findElement(By.id("status")).getText()).until(d -> d.findElements(
                    By.xpath("//table[@id='activations']//a[text()='" + ACTIVATION + "']")).size() == 1);

            String payload = "poison <script>window.pwned = 1</script><img src=x onerror=\"window.pwned = 2\">";
            db.sendOne(QUEUE, payload);
            new WebDriverWait(operator, Duration.ofSeconds(60)).until(d -> d.findElements(
                    By.cssSelector("#notifications li")).stream().anyMatch(li -> li.getText().contains("dead")));
            operator.findElement(By.linkText(ACTIVATION)).click();
            WebElement body = new WebDriverWait(operator, Duration.ofSeconds(30))
                    .until(d -> d.findElements(By.cssSelector("#deadletters pre.body")).stream().findFirst()
                            .orElse(null));
            assertEquals(payload, body.getText(), "the body shown as text");
            assertEquals(0, operator.findElements(By.cssSelector("#deadletters img, #deadletters script")).size());
            assertEquals(Boolean.TRUE, ((JavascriptExecutor) operator).executeScript(
                    "return typeof window.pwned === 'undefined'"), "nothing of the body ran");

            clickButton(operator, "Pause");
            await("paused through the page").atMost(Duration.ofSeconds(30)).until(() -> call("GET", VIEWER,
                    API_ACTIVATION, null, false).body().contains("\"parkedReaders\":1"));
            // issue 47 point 5: the state in colour
            new WebDriverWait(operator, Duration.ofSeconds(30)).withMessage(() -> "the state's class is "
                    + stateClassOnPage(operator)).until(d -> "state paused".equals(stateClassOnPage(d)));
            String run = "browser-" + UUID.randomUUID();
            db.send(QUEUE, run, 3, 2);
            new WebDriverWait(operator, Duration.ofSeconds(30))
                    .until(d -> d.findElements(By.cssSelector("#groups li")).size() == 3);
            List<String> before = groupsOnPage(operator);
            long dragged = System.nanoTime();
            ((JavascriptExecutor) operator).executeScript(DRAG_THIRD_TO_TOP);
            List<String> wanted = List.of(before.get(2), before.get(0), before.get(1));
            long[] dragMillis = {-1};
            // the first group the readers take next is the one whose priority is highest in the database
            await("the dragged group first for the readers").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(20)).until(() -> {
                        Matcher first = GROUP.matcher(call("GET", VIEWER, API_ACTIVATION + "/groups", null, false)
                                .body());
                        boolean done = first.find() && first.group(1).equals(wanted.get(0));
                        dragMillis[0] = (System.nanoTime() - dragged) / 1_000_000;
                        return done;
                    });
            new WebDriverWait(operator, Duration.ofSeconds(30)).until(d -> groupsOnPage(d).equals(wanted));
            long dragLatency = dragMillis[0];
            new WebDriverWait(operator, Duration.ofSeconds(30)).until(d -> "255".equals(((JavascriptExecutor) d)
                    .executeScript("const i = document.querySelector('#groups li input'); return i && i.value;")));
            screenshot(operator, "console-operator.png", "detail");
            long deliveredBefore = deliveredOnPage(operator);
            clickButton(operator, "Resume");
            new WebDriverWait(operator, Duration.ofSeconds(60)).ignoring(StaleElementReferenceException.class)
                    .until(d -> deliveredOnPage(d) >= deliveredBefore + 6);
            await("all six recorded").atMost(Duration.ofSeconds(60)).until(() -> db.count(
                    "SELECT COUNT(*) FROM it_record WHERE body LIKE ?", "%|" + run + "%") == 6);
            // issue 47 point 5: the states' order as docs/operations/console.md gives it, by the page's own function
            assertEquals(List.of("queue-disabled", "breaker-open", "breaker-probing", "reconnecting", "paused",
                    "running"), ((JavascriptExecutor) operator).executeScript("return [{queueDisabled: true,"
                    + " breakerState: 'OPEN', reconnectingReaders: 1, paused: true}, {breakerState: 'OPEN',"
                    + " reconnectingReaders: 1, paused: true}, {breakerState: 'PROBING', reconnectingReaders: 1,"
                    + " paused: true}, {breakerState: 'CLOSED', reconnectingReaders: 1, paused: true},"
                    + " {breakerState: 'CLOSED', reconnectingReaders: 0, paused: true}, {breakerState: 'CLOSED',"
                    + " reconnectingReaders: 0, paused: false}].map(a => stateOf(a)[0]);"));
            // issue 47 point 5: the deliveries charted, from the console's sampled history
            await("a delivered rate above 0 in the activation's history").atMost(Duration.ofSeconds(60))
                    .until(() -> maxDeliveredRate(read(VIEWER, "api/history/" + URLEncoder.encode(ACTIVATION,
                            StandardCharsets.UTF_8))) > 0);
            new WebDriverWait(operator, Duration.ofSeconds(30)).until(d -> Boolean.TRUE.equals(
                    ((JavascriptExecutor) d).executeScript("return document.querySelectorAll("
                            + "'#charts-activation canvas').length === 4 && document.querySelectorAll("
                            + "'#charts-overall canvas').length === 4"
                            + " && drawn['charts-activation'].key === arguments[0]"
                            + " && drawn['charts-activation'].plots[0].data[1].some(v => v > 0)"
                            + " && drawn['charts-overall'].plots[0].data[1].some(v => v > 0);", ACTIVATION)));
            new WebDriverWait(operator, Duration.ofSeconds(30)).withMessage(() -> "resumed, the state's class is "
                    + stateClassOnPage(operator)).until(d -> "state running".equals(stateClassOnPage(d)));
            // the recipe of docs/operations/console.md's Charts, as written (with this activation's name)
            Matcher recipe = Pattern.compile("(?m)^\\$C/(history\\S*)").matcher(
                    org.ssbjca.docs.Docs.section("docs/operations/console.md", "## Charts"));
            List<String> recipes = new ArrayList<>();
            while (recipe.find()) {
                String history = "api/" + recipe.group(1).replace("PriorityService%40PriorityServiceQueue",
                        URLEncoder.encode(ACTIVATION, StandardCharsets.UTF_8));
                String answer = read(VIEWER, history);
                assertTrue(maxDeliveredRate(answer) > 0, history + " answered " + answer);
                recipes.add(history);
            }
            assertEquals(2, recipes.size(), recipes.toString());
            screenshot(operator, "console-charts.png");
            LinkedHashSet<String> taken = new LinkedHashSet<>();
            for (String r : db.texts("SELECT body FROM it_record WHERE body LIKE ? ORDER BY id", "%|" + run + "%")) {
                taken.add(r.substring(0, r.indexOf('|')));
            }
            assertEquals(wanted, new ArrayList<>(taken), "the reader took the groups in the dragged order");

            // the dead letter, once its cause is gone, redelivered from the page
            setSystemProperty(ConsoleRecordingService.CURE, "true");
            new WebDriverWait(operator, Duration.ofSeconds(30)).ignoring(StaleElementReferenceException.class)
                    .until(d -> {
                        WebElement pick = d.findElements(By.cssSelector("#deadletters input[type=checkbox]")).stream()
                                .findFirst().orElse(null);
                        if (pick != null && !pick.isSelected()) {
                            pick.click();
                        }
                        return pick != null && pick.isSelected();
                    });
            operator.findElement(By.id("redeliver-selected")).click();
            await("the redelivered dead letter recorded").atMost(Duration.ofSeconds(60)).until(() -> db.count(
                    "SELECT COUNT(*) FROM it_record WHERE body LIKE ?", "%|" + payload) == 1);
            new WebDriverWait(operator, Duration.ofSeconds(30))
                    .until(d -> d.findElements(By.cssSelector("#deadletters tbody tr")).isEmpty());

            // issue 14: the conversations of fire-and-forget senders listed, and ended after the confirmation
            String leak = "ItConsolePageLeakQueue";
            db.declare(leak).fireAndForget(leak, 3);
            WebElement age = operator.findElement(By.id("conversation-age"));
            age.clear();
            age.sendKeys("0");
            operator.findElement(By.id("list-conversations")).click();
            By leakRow = By.xpath("//table[@id='conversations']//tr[td[1]='" + leak + "Service' and td[2]='DI']");
            WebElement row = new WebDriverWait(operator, Duration.ofSeconds(30)).until(d -> d.findElements(leakRow)
                    .stream().findFirst().orElse(null));
            assertEquals("3", row.findElement(By.xpath("td[3]")).getText());
            row.findElement(By.tagName("button")).click();
            org.openqa.selenium.Alert confirm = new WebDriverWait(operator, Duration.ofSeconds(10))
                    .until(org.openqa.selenium.support.ui.ExpectedConditions.alertIsPresent());
            assertTrue(confirm.getText().contains("End 3 conversation endpoint(s) of " + leak + "Service in state DI"),
                    confirm.getText());
            confirm.accept();
            new WebDriverWait(operator, Duration.ofSeconds(30)).until(d -> d.findElements(leakRow).isEmpty());
            assertEquals(0, db.count("SELECT COUNT(*) FROM ssb.conversation_endpoint WHERE service_name = ?",
                    leak + "Service"), "the target side ended WITH CLEANUP");

            viewer = browser(VIEWER);
            new WebDriverWait(viewer, Duration.ofSeconds(30)).until(d -> d.findElement(By.id("user")).getText()
                    .contains("(viewer)") && !d.findElements(By.cssSelector("#activations button")).isEmpty());
            assertTrue(viewer.findElements(By.cssSelector("button.act, input:not(.filter)")).stream()
                    .noneMatch(WebElement::isEnabled), "a viewer's page has no enabled button or field that acts");
            Object refused = ((JavascriptExecutor) viewer).executeAsyncScript("const done = arguments["
                    + "arguments.length - 1]; fetch(location.origin + location.pathname.replace(/[^/]*$/, '')"
                    + " + 'api/activations/' + encodeURIComponent(arguments[0]) + '/pause',"
                    + " {method: 'POST', headers: {'X-SSB-Console': '1'}}).then(r => done(r.status),"
                    + " e => done(String(e)));", ACTIVATION);
            assertEquals(403L, refused, "the viewer's own page cannot act either");
            screenshot(viewer, "console-viewer.png");
            FIGURES.info("console page in Chromium: dead letter announced live and shown as text (" + payload.length()
                    + " characters, nothing run), redelivered from the page; groups " + before + " dragged to "
                    + wanted + ", taken " + taken + "; " + dragLatency + " ms from the drop to the dragged group"
                    + " being the readers' next");
        } finally {
            operator.quit();
            if (viewer != null) {
                viewer.quit();
            }
            stop();
        }
    }

    /**
     * Issue 47 point 5, the breaker's colour from a real open breaker rather than made-up values: {@link
     * BreakerService} fails every delivery until the server's system property {@value BreakerService#UP} is true;
     * three failures in a row open its breaker, and the page shows the activation as "breaker open" (or "breaker
     * probing" while a probe runs); once the service is up a probe succeeds, the breaker closes and the page shows it
     * running.
     */
    @Test
    @RunAsClient
    void aRealOpenBreakerShowsInItsColourUntilAProbeSucceeds() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of(CHROMEDRIVER)) && Files.isExecutable(Path.of(CHROMIUM)),
                "needs Debian's chromium and chromium-driver packages, which .ci/run installs");
        BrokerDb db = start();
        db.declare(BreakerService.QUEUE);
        String activation = "BreakerService@" + BreakerService.QUEUE;
        String api = "api/activations/" + URLEncoder.encode(activation, StandardCharsets.UTF_8);
        deployer.deploy("console-breaker");
        WebDriver viewer = null;
        try {
            String run = "breaker-" + UUID.randomUUID();
            for (int i = 0; i < 6; i++) {
                db.sendOne(BreakerService.QUEUE, run + "-" + i);
            }
            await("the breaker opened").atMost(Duration.ofSeconds(60))
                    .until(() -> read(VIEWER, api).matches("(?s).*\"breakerState\":\"(OPEN|PROBING)\".*"));
            viewer = browser(VIEWER);
            WebDriver page = viewer;
            new WebDriverWait(viewer, Duration.ofSeconds(30)).withMessage(() -> "the state's class is "
                    + stateClassOnPage(page, activation)).until(d -> stateClassOnPage(d, activation)
                            .matches("state breaker-(open|probing)"));
            setSystemProperty(BreakerService.UP, "true");
            new WebDriverWait(viewer, Duration.ofSeconds(60)).withMessage(() -> "closed, the state's class is "
                    + stateClassOnPage(page, activation)).until(d -> "state running".equals(
                            stateClassOnPage(d, activation)));
            await("all six recorded").atMost(Duration.ofSeconds(60)).until(() -> db.count(
                    "SELECT COUNT(*) FROM it_record WHERE body LIKE ?", run + "-%") == 6);
            assertTrue(read(VIEWER, api).contains("\"breakerState\":\"CLOSED\""), read(VIEWER, api));
        } finally {
            if (viewer != null) {
                viewer.quit();
            }
            ServerAdmin.manual(Operations.createRemoveOperation(new ModelNode().add("system-property",
                    BreakerService.UP)));
            deployer.undeploy("console-breaker");
            stop();
        }
    }

    /**
     * Issue 47 point 4, the broker doctor in the console: the activation's queue disabled (on PostgreSQL by the
     * portable schema's UPDATE, standing for SQL Server's poison detection) shows "queue disabled" and an
     * {@code Enable queue} button, which a viewer cannot use (403) and an operator's click enables: the message sent
     * meanwhile is then delivered.
     */
    @Test
    @RunAsClient
    void aDisabledQueueShowsEnableQueueAndAnOperatorsClickEnablesIt() throws Exception {
        BrokerDb db = start();
        WebDriver operator = null;
        try {
            db.execute("UPDATE ssb.service_queue SET is_receive_enabled = FALSE WHERE queue_name = '" + QUEUE + "'");
            await("the readers found the queue disabled").atMost(Duration.ofSeconds(60))
                    .until(() -> read(VIEWER, API_ACTIVATION).contains("\"queueDisabled\":true"));
            assertEquals(403, call("POST", VIEWER, API_ACTIVATION + "/enable-queue", null, true).statusCode(),
                    "a viewer may not enable it");
            db.sendOne(QUEUE, "sent while disabled");

            operator = browser(OPERATOR);
            new WebDriverWait(operator, Duration.ofSeconds(30)).until(d -> d.getPageSource()
                    .contains("queue disabled"));
            WebDriver page = operator;
            new WebDriverWait(operator, Duration.ofSeconds(30)).withMessage(() -> "the state's class is "
                    + stateClassOnPage(page)).until(d -> "state queue-disabled".equals(stateClassOnPage(d)));
            clickButton(operator, "Enable queue");

            await("enabled, the readers read again").atMost(Duration.ofSeconds(60))
                    .until(() -> read(VIEWER, API_ACTIVATION).contains("\"queueDisabled\":false"));
            await("the waiting message was put on the queue").atMost(Duration.ofSeconds(30))
                    .until(() -> db.count("SELECT COUNT(*) FROM ssb.transmission_queue") == 0);
        } finally {
            if (operator != null) {
                operator.quit();
            }
            stop();
        }
    }

    /** Users, server, the RAR with its bean and the console; returns the database. */
    private BrokerDb start() throws IOException, InterruptedException {
        pg = Postgres.get();
        BrokerDb db = BrokerDb.of(pg).declare(QUEUE);
        db.execute("CREATE TABLE IF NOT EXISTS " + ConsoleTableService.TABLE + " (id BIGSERIAL PRIMARY KEY,"
                + " body TEXT NOT NULL, attempts INT NOT NULL DEFAULT 0)");
        db.execute("ALTER TABLE " + ConsoleTableService.TABLE + " ADD COLUMN IF NOT EXISTS error TEXT");
        db.execute("ALTER TABLE " + ConsoleTableService.TABLE + " ADD COLUMN IF NOT EXISTS failed_at TIMESTAMP");
        db.execute("DELETE FROM " + ConsoleTableService.TABLE);
        ManualServer.resetBaseDir();
        addUser(VIEWER, "ssb-viewer");
        addUser(OPERATOR, "ssb-operator");
        controller.start(ManualServer.QUALIFIER, ManualServer.config(""));
        deployer.deploy("console-rar");
        deployer.deploy("console-beans");
        deployer.deploy("console");
        return db;
    }

    private void stop() {
        try {
            deployer.undeploy("console");
            deployer.undeploy("console-beans");
            deployer.undeploy("console-rar");
        } finally {
            controller.stop(ManualServer.QUALIFIER);
        }
    }

    /** @return headless Chromium on the console's page, logged in as the user (credentials in the address) */
    private static WebDriver browser(String[] user) {
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER);
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM)
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1300");
        WebDriver driver = new ChromeDriver(options);
        driver.get(base().replace("http://", "http://" + user[0] + ":" + user[1] + "@"));
        return driver;
    }

    /** @return the class of the state badge in the activation's row of the page, or "-" when there is none */
    private static String stateClassOnPage(WebDriver driver) {
        return stateClassOnPage(driver, ACTIVATION);
    }

    /** @return the class of the state shown with an activation in the page's table, "-" when it is not there */
    private static String stateClassOnPage(WebDriver driver, String activation) {
        return String.valueOf(((JavascriptExecutor) driver).executeScript("const a = [...document.querySelectorAll("
                + "'#activations a')].find(x => x.textContent === arguments[0]);"
                + " const s = a && a.closest('tr').querySelector('span.state'); return s ? s.className : '-';",
                activation));
    }

    /** @return the highest delivered rate of a history's columns ({@code "delivered":[...]}), 0 when none */
    private static double maxDeliveredRate(String history) {
        Matcher m = Pattern.compile("\"delivered\":\\[([^\\]]*)\\]").matcher(history);
        double max = 0;
        if (m.find() && !m.group(1).isBlank()) {
            for (String v : m.group(1).split(",")) {
                max = Math.max(max, Double.parseDouble(v));
            }
        }
        return max;
    }

    /** @return the page's Delivered counter of the activation (read in one script: the page rebuilds its table) */
    private static long deliveredOnPage(WebDriver driver) {
        Object text = ((JavascriptExecutor) driver).executeScript("const a = [...document.querySelectorAll("
                + "'#activations a')].find(x => x.textContent === arguments[0]);"
                + " return a ? a.closest('tr').children[5].textContent : '-1';", ACTIVATION);
        return Long.parseLong(String.valueOf(text).trim());
    }

    /**
     * Saves the page as target/console-screenshots/{@code name} (the pictures of docs/operations/console.md come from
     * there).
     */
    private static void screenshot(WebDriver driver, String name) throws IOException {
        screenshot(driver, name, null);
    }

    /** Saves the page as {@link #screenshot(WebDriver, String)} does, scrolled to the element of that id first. */
    private static void screenshot(WebDriver driver, String name, String id) throws IOException {
        ((JavascriptExecutor) driver).executeScript("const e = arguments[0] && document.getElementById(arguments[0]);"
                + " if (e) { e.scrollIntoView(); } else { window.scrollTo(0, 0); }", id);
        Path dir = Path.of("target", "console-screenshots");
        Files.createDirectories(dir);
        Files.write(dir.resolve(name), ((org.openqa.selenium.TakesScreenshot) driver)
                .getScreenshotAs(org.openqa.selenium.OutputType.BYTES));
    }

    /** Sets a system property of the running manual server (its management model). */
    private static void setSystemProperty(String name, String value) {
        ModelNode op = Operations.createAddOperation(new ModelNode().add("system-property", name));
        op.get("value").set(value);
        ServerAdmin.manual(op);
    }

    /** @return the body of a GET, for waits that cannot throw checked exceptions */
    private static String read(String[] user, String path) {
        try {
            return call("GET", user, path, null, false).body();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** @return the group ids of the page's pending list, in its order (read in one script: the page rebuilds it) */
    @SuppressWarnings("unchecked")
    private static List<String> groupsOnPage(WebDriver driver) {
        return new ArrayList<>((List<String>) ((JavascriptExecutor) driver).executeScript(
                "return [...document.querySelectorAll('#groups li')].map(li => li.dataset.group);"));
    }

    /** Clicks a button of the activations table, again if the page rebuilt the table under the click. */
    private static void clickButton(WebDriver driver, String label) {
        new WebDriverWait(driver, Duration.ofSeconds(30)).ignoring(StaleElementReferenceException.class).until(d -> {
            WebElement button = d.findElements(By.xpath("//table[@id='activations']//button[text()='" + label
                    + "']")).stream().filter(WebElement::isEnabled).findFirst().orElse(null);
            if (button == null) {
                return false;
            }
            button.click();
            return true;
        });
    }

    /** {@code add-user.sh -a} into the manual server's configuration, as docs/operations/console.md says. */
    private static void addUser(String[] user, String role) throws IOException, InterruptedException {
        ServerAdmin.addApplicationUser(ManualServer.baseDir().resolve("configuration"), user[0], user[1], role);
    }

    /** @return whether the stream's lines hold an event of that name ({@code event: name}, the space optional) */
    private static boolean hasEvent(List<String> lines, String name) {
        return lines.stream().anyMatch(l -> l.startsWith("event:") && l.substring(6).strip().equals(name));
    }

    private static String base() {
        return "http://127.0.0.1:" + (8080 + Integer.getInteger("ssb.it.manualPortOffset", 100)) + "/ssb-jca-console/";
    }

    private static String basic(String[] user) {
        byte[] credentials = (user[0] + ":" + user[1]).getBytes(StandardCharsets.UTF_8);
        return "Basic " + Base64.getEncoder().encodeToString(credentials);
    }

    private static HttpResponse<String> call(String method, String[] user, String path, String json,
            boolean csrfHeader) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofSeconds(30))
                .header("Accept", "application/json");
        if (user != null) {
            request.header("Authorization", basic(user));
        }
        if (csrfHeader) {
            request.header("X-SSB-Console", "1");
        }
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        request.method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(json));
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
