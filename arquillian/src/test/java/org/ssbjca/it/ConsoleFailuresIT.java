package org.ssbjca.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.time.Instant;
import java.util.Base64;
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
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;
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
 * Issue 47 point 3: the console's failures view in headless Chromium on WildFly. Poison messages of two causes
 * become dead letters; the page groups them by failure (counts shown), finds one by a text of its body, lets an
 * operator download a body (a viewer is refused), redelivers one group at 2 messages per second to completion once the
 * cause is gone, and cancels a slow redelivery of the other group after its first letter. A table queue's set-aside
 * rows: grouped with first and last seen, a rate of 0 refused, a group re-queued at 2 rows per second, a search and a
 * selection re-queued at a slow rate and cancelled. Screenshots for the docs.
 */
@ExtendWith(ArquillianExtension.class)
class ConsoleFailuresIT {

    private static final Logger FIGURES = Logger.getLogger("org.ssbjca.figures");
    private static final String QUEUE = ConsoleRecordingService.QUEUE;
    private static final String ACTIVATION = "ConsoleRecordingService@" + QUEUE;
    private static final String[] VIEWER = {"failures-viewer", "viewer-Pw-" + UUID.randomUUID()};
    private static final String[] OPERATOR = {"failures-operator", "operator-Pw-" + UUID.randomUUID()};
    private static final String CHROMIUM = "/usr/bin/chromium";
    private static final String CHROMEDRIVER = "/usr/bin/chromedriver";
    private static final String FAILURES = "api/activations/" + URLEncoder.encode(ACTIVATION, StandardCharsets.UTF_8)
            .replace("+", "%20") + "/failures/";
    private static final int ORDERS = 6;
    private static Postgres pg;

    @ArquillianResource
    ContainerController controller;

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "failures-rar", order = 1, managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static ResourceAdapterArchive rar() {
        pg = Postgres.get();
        return Deployments.rar(IronJacamar.descriptor(pg.jdbcUrl(), pg.user(), pg.password()).xml());
    }

    @Deployment(name = "failures-beans", order = 2, managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static WebArchive beans() {
        return Deployments.testWar("console-failures-it.war", ConsoleRecordingService.class, Recorder.class,
                ConsoleTableService.class);
    }

    @Deployment(name = "failures-console", order = 3, managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static WebArchive console() {
        return ShrinkWrap.create(ZipImporter.class, "ssb-jca-console.war")
                .importFrom(Path.of(System.getProperty("ssb.it.consoleWar")).toFile()).as(WebArchive.class);
    }

    @Test
    @RunAsClient
    void theFailuresViewGroupsFindsExportsAndRedeliversAGroupAtARateWithCancel() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of(CHROMEDRIVER)) && Files.isExecutable(Path.of(CHROMIUM)),
                "needs Debian's chromium and chromium-driver packages, which .ci/run installs");
        BrokerDb db = start();
        WebDriver page = browser(OPERATOR);
        try {
            call("DELETE", OPERATOR, "api/activations/" + URLEncoder.encode(ACTIVATION, StandardCharsets.UTF_8)
                    .replace("+", "%20") + "/dead-letters", true);
            String run = UUID.randomUUID().toString().substring(0, 8);
            for (int i = 1; i <= ORDERS; i++) {
                db.sendOne(QUEUE, "poison order " + i + " of run " + run);
            }
            db.sendOne(QUEUE, "poison ping 1");
            db.sendOne(QUEUE, "poison ping 2");
            await("eight dead letters").atMost(Duration.ofSeconds(180)).until(() -> count(read(VIEWER,
                    FAILURES + "search?max=100"), "\"id\":") == ORDERS + 2);

            // the page rebuilds its activations table every 2 s: click again if it was rebuilt under the click
            new WebDriverWait(page, Duration.ofSeconds(30)).ignoring(StaleElementReferenceException.class)
                    .until(d -> {
                        d.findElement(By.linkText(ACTIVATION)).click();
                        return d.findElement(By.id("failures")).isDisplayed();
                    });
            By rows = By.cssSelector("#failure-groups tbody tr");
            new WebDriverWait(page, Duration.ofSeconds(30)).until(d -> d.findElements(rows).size() == 2);
            List<List<String>> groups = groupsOnPage(page);
            String key = groups.get(0).get(0);
            assertTrue(key.contains("cannot process poison order <n> of run " + shape(run)), key);
            assertEquals(String.valueOf(ORDERS), groups.get(0).get(1));
            assertEquals("2", groups.get(1).get(1));

            WebElement text = page.findElement(By.id("failure-text"));
            text.sendKeys("order 3 of run");
            page.findElement(By.id("failure-search")).click();
            By found = By.cssSelector("#failure-results tbody tr");
            new WebDriverWait(page, Duration.ofSeconds(30)).until(d -> d.findElements(found).size() == 1);
            String id = page.findElement(found).findElement(By.xpath("td[2]")).getText();
            assertEquals("poison order 3 of run " + run, call("GET", OPERATOR, FAILURES + "dead-letters/" + id
                    + "/body", false).body(), "the body downloaded");
            assertEquals(403, call("GET", VIEWER, FAILURES + "dead-letters/" + id + "/body", false).statusCode(),
                    "a viewer downloads no body");
            await("the download audited").atMost(Duration.ofSeconds(10)).until(() -> LogStore.serverLogLines(
                    "SSBJCA0282: console user " + OPERATOR[0] + " exported the body of dead letter " + id + " of "
                    + ACTIVATION) == 1);
            screenshot(page, "failures", "console-failures.png");

            setSystemProperty(ConsoleRecordingService.CURE, "true");
            WebElement rate = page.findElement(By.id("redeliver-rate"));
            rate.clear();
            rate.sendKeys("2");
            clickInRow(page, 0, "Redeliver group");
            new WebDriverWait(page, Duration.ofSeconds(30)).until(d -> d.findElement(By.id("job-text")).getText()
                    .contains("RUNNING"));
            screenshot(page, "failures", "console-failures-redelivery.png");
            new WebDriverWait(page, Duration.ofSeconds(60)).until(d -> d.findElement(By.id("job-text")).getText()
                    .contains("DONE"));
            String job = read(VIEWER, FAILURES + "redeliveries/current");
            assertTrue(job.contains("\"redelivered\":" + ORDERS), job);
            double seconds = Duration.between(Instant.parse(field(job, "startedAt")),
                    Instant.parse(field(job, "endedAt"))).toMillis() / 1000.0;
            assertTrue(seconds >= (ORDERS - 1) / 2.0, ORDERS + " letters at 2/s took " + seconds + " s");
            assertEquals(ORDERS, db.count("SELECT COUNT(*) FROM it_record WHERE body LIKE ?", "%|poison order % of run "
                    + run));
            new WebDriverWait(page, Duration.ofSeconds(30)).until(d -> d.findElements(rows).size() == 1);
            assertEquals(1, LogStore.serverLogLines("SSBJCA0150: console user " + OPERATOR[0] + ": POST /"
                    + FAILURES.substring(4) + "redeliveries {\"group\""), "the start audited with its user");
            await("the job's end logged").atMost(Duration.ofSeconds(10)).until(() -> LogStore.serverLogLines(
                    "SSBJCA0281: " + ACTIVATION + ": redelivery of group ") == 1);

            rate.clear();
            rate.sendKeys("0.05");
            clickInRow(page, 0, "Redeliver group");
            await("the first ping redelivered").atMost(Duration.ofSeconds(30)).until(() -> read(VIEWER,
                    FAILURES + "redeliveries/current").contains("\"redelivered\":1"));
            page.findElement(By.id("job-cancel")).click();
            new WebDriverWait(page, Duration.ofSeconds(30)).until(d -> d.findElement(By.id("job-text")).getText()
                    .contains("CANCELLED"));
            assertEquals(1, count(read(VIEWER, FAILURES + "search?text=ping"), "\"id\":"), "the other stays");
            setAsideGroupsShowAndAreRequeued(page, db);
            runRecipe();
            FIGURES.info("console failures view in Chromium: " + ORDERS + " + 2 dead letters in 2 groups; a group of "
                    + ORDERS + " redelivered at 2/s in " + seconds + " s; a redelivery at 0.05/s cancelled after 1");
        } finally {
            page.quit();
            stop();
        }
    }

    /**
     * Runs the bash recipe of docs/operations/console-failures.md as written, with this server's address, the
     * operator's credentials, the remaining letter's id and its group's key put in for the placeholders: the download
     * gets its body, the group redelivery starts, its progress reads, the cancel answers.
     */
    private static void runRecipe() throws IOException, InterruptedException {
        String doc = Files.readString(Path.of("..", "docs", "operations", "console-failures.md"));
        int from = doc.indexOf("```bash\n") + 8;
        String script = doc.substring(from, doc.indexOf("\n```", from));
        String letter = read(VIEWER, FAILURES + "search?text=ping");
        Matcher id = Pattern.compile("\"id\":(\\d+)").matcher(letter);
        assertTrue(id.find(), letter);
        String key = field(read(VIEWER, FAILURES + "groups"), "key");
        Path dir = Files.createTempDirectory("recipe");
        script = "set -euo pipefail\n" + script.replace("alice:<password>", OPERATOR[0] + ":" + OPERATOR[1])
                .replace("http://localhost:8080/", base().replace("ssb-jca-console/", ""))
                .replace("dead-letters/42/body -o letter-42.bin", "dead-letters/" + id.group(1)
                        + "/body -o letter-42.bin")
                .replace("<a key from groups>", key);
        Process bash = new ProcessBuilder("bash", "-c", script).directory(dir.toFile()).redirectErrorStream(true)
                .start();
        String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, bash.waitFor(), out);
        assertEquals("poison ping 2", Files.readString(dir.resolve("letter-42.bin")), out);
        assertTrue(out.contains("\"state\":") && out.contains("\"cancelled\":"), out);
        assertTrue(out.contains("\"count\":1"), out);
    }

    /**
     * Issue 47 point 3: a table activation's set-aside rows, grouped by the error its errorColumn holds (first and last
     * seen from its errorTimeColumn), shown by the table row's Failures button. A rate of 0 is refused naming it; an
     * operator re-queues the group at 2 rows per second (audited with the user, its end logged), and the bean, failing
     * again, sets the rows aside again; a search finds them, two are chosen and re-queued at 0.05 per second, and the
     * job is cancelled after the first. Then the set-aside recipe of docs/operations/console-failures.md runs.
     */
    private static void setAsideGroupsShowAndAreRequeued(WebDriver page, BrokerDb db) throws Exception {
        db.execute("DELETE FROM " + ConsoleTableService.TABLE);
        db.execute("INSERT INTO " + ConsoleTableService.TABLE + " (body) VALUES ('bad 1'), ('bad 2'), ('bad 3')");
        String table = "ConsoleTableService@" + ConsoleTableService.TABLE;
        String api = "api/tables/" + URLEncoder.encode(table, StandardCharsets.UTF_8) + "/set-aside/";
        await("three rows set aside").atMost(Duration.ofSeconds(60)).until(() -> read(VIEWER, "api/tables")
                .contains("\"setAsideRows\":3"));
        new WebDriverWait(page, Duration.ofSeconds(30)).ignoring(StaleElementReferenceException.class)
                .until(d -> {
                    d.findElement(By.xpath("//table[@id='tables']//tr[td[1]='" + table + "']//button[text()="
                            + "'Failures']")).click();
                    return d.findElement(By.id("set-aside-section")).isDisplayed();
                });
        By rows = By.cssSelector("#set-aside-groups tbody tr");
        new WebDriverWait(page, Duration.ofSeconds(30)).until(d -> d.findElements(rows).size() == 1);
        @SuppressWarnings("unchecked")
        List<String> cells = (List<String>) ((JavascriptExecutor) page).executeScript("return [...document"
                + ".querySelectorAll('#set-aside-groups tbody tr td')].map(td => td.textContent);");
        assertTrue(cells.get(0).startsWith("java.lang.IllegalStateException: cannot handle bad <n>"), cells.get(0));
        assertEquals("3", cells.get(1));
        assertTrue(!cells.get(2).isEmpty() && !cells.get(3).isEmpty(), "first and last seen: " + cells);

        HttpResponse<String> zero = post(OPERATOR, api + "requeues", "{\"group\": \"" + cells.get(0)
                .replace("\"", "\\\"") + "\", \"perSecond\": 0}");
        assertEquals(400, zero.statusCode(), zero.body());
        assertTrue(zero.body().contains("rowsPerSecond must be over 0 and at most 1000, was 0.0"), zero.body());

        WebElement rate = page.findElement(By.id("set-aside-rate"));
        rate.clear();
        rate.sendKeys("2");
        new WebDriverWait(page, Duration.ofSeconds(30)).ignoring(StaleElementReferenceException.class)
                .until(d -> {
                    d.findElement(rows).findElement(By.xpath(".//button[text()='Re-queue group']")).click();
                    return true;
                });
        new WebDriverWait(page, Duration.ofSeconds(60)).until(d -> d.findElement(By.id("set-aside-job-text"))
                .getText().contains("DONE"));
        String job = read(VIEWER, api + "requeues/current");
        assertTrue(job.contains("\"redelivered\":3"), job);
        double seconds = Duration.between(Instant.parse(field(job, "startedAt")),
                Instant.parse(field(job, "endedAt"))).toMillis() / 1000.0;
        assertTrue(seconds >= 1.0, "3 rows at 2/s took " + seconds + " s");
        assertEquals(2, LogStore.serverLogLines("SSBJCA0150: console user " + OPERATOR[0] + ": POST /"
                + api.substring(4) + "requeues {\"group\""), "the refusal and the start audited with the user");
        await("the job's end logged").atMost(Duration.ofSeconds(10)).until(() -> LogStore.serverLogLines(
                "SSBJCA0314: " + table + ": re-queue of group ") == 1);
        await("set aside again after their next failure").atMost(Duration.ofSeconds(60)).until(() -> read(VIEWER,
                "api/tables").contains("\"setAsideRows\":3"));

        page.findElement(By.id("set-aside-text")).sendKeys("bad");
        page.findElement(By.id("set-aside-search")).click();
        By found = By.cssSelector("#set-aside-results tbody tr");
        new WebDriverWait(page, Duration.ofSeconds(30)).until(d -> d.findElements(found).size() == 3);
        List<WebElement> picks = page.findElements(By.cssSelector("#set-aside-results tbody input[type=checkbox]"));
        picks.get(0).click();
        picks.get(1).click();
        rate.clear();
        rate.sendKeys("0.05");
        page.findElement(By.id("set-aside-requeue-selected")).click();
        await("the first chosen row re-queued").atMost(Duration.ofSeconds(30)).until(() -> read(VIEWER,
                api + "requeues/current").contains("\"redelivered\":1"));
        page.findElement(By.id("set-aside-job-cancel")).click();
        new WebDriverWait(page, Duration.ofSeconds(30)).until(d -> d.findElement(By.id("set-aside-job-text"))
                .getText().contains("CANCELLED"));
        assertTrue(read(VIEWER, api + "requeues/current").contains("\"description\":\"2 chosen set-aside row(s)\""));
        screenshot(page, "set-aside-section", "console-set-aside.png");
        await("the re-queued row set aside again").atMost(Duration.ofSeconds(60)).until(() -> read(VIEWER,
                "api/tables").contains("\"setAsideRows\":3"));
        runSetAsideRecipe(api, table);
        FIGURES.info("console: 3 set-aside rows in 1 group re-queued at 2/s in " + seconds + " s; 2 chosen at"
                + " 0.05/s cancelled after 1");
    }

    /**
     * Runs the set-aside block of docs/operations/console-failures.md as written, with the first block's {@code C}
     * (this server's address and the operator) and the group's key put in: the groups, the search, a re-queue at 2
     * rows per second, its progress and its cancel answer.
     */
    private static void runSetAsideRecipe(String api, String table) throws IOException, InterruptedException {
        String doc = Files.readString(Path.of("..", "docs", "operations", "console-failures.md"));
        int first = doc.indexOf("```bash\n") + 8;
        String c = doc.substring(first, doc.indexOf("\n", first));
        int from = doc.indexOf("```bash\n", doc.indexOf("## Set-aside table rows")) + 8;
        String script = doc.substring(from, doc.indexOf("\n```", from));
        String key = field(read(VIEWER, api + "groups"), "key");
        script = "set -euo pipefail\n" + (c + "\n" + script).replace("alice:<password>", OPERATOR[0] + ":"
                + OPERATOR[1]).replace("http://localhost:8080/", base().replace("ssb-jca-console/", ""))
                .replace("<a key from groups>", key);
        Process bash = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true).start();
        String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, bash.waitFor(), out);
        assertTrue(out.contains("\"count\":3") && out.contains("\"firstSeen\":"), out);
        assertTrue(out.contains("\"state\":") && out.contains("\"cancelled\":"), out);
        assertTrue(out.contains("cannot handle bad 1"), out);
    }

    /** @return the groups table's rows, each as its cells' texts (read in one script: the page rebuilds it) */
    @SuppressWarnings("unchecked")
    private static List<List<String>> groupsOnPage(WebDriver driver) {
        return (List<List<String>>) ((JavascriptExecutor) driver).executeScript("return [...document"
                + ".querySelectorAll('#failure-groups tbody tr')]"
                + ".map(tr => [...tr.children].map(td => td.textContent));");
    }

    /** @return the run id as the failure's shape shows it (FailureShape's id and number rules) */
    private static String shape(String run) {
        return run.replaceAll("\\b(?=[0-9a-fA-F]*\\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{6,}\\b", "<hex>")
                .replaceAll("(?<![\\w$])\\d+(?:[.,]\\d+)*", "<n>");
    }

    private static String field(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":\"([^\"]*)\"").matcher(json);
        assertTrue(m.find(), key + " in " + json);
        return m.group(1);
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }

    /** Clicks a button of a row of the groups table, again if the page rebuilt the table under the click. */
    private static void clickInRow(WebDriver driver, int row, String label) {
        new WebDriverWait(driver, Duration.ofSeconds(30)).ignoring(StaleElementReferenceException.class).until(d -> {
            WebElement r = d.findElements(By.cssSelector("#failure-groups tbody tr")).get(row);
            r.findElement(By.xpath(".//button[text()='" + label + "']")).click();
            return true;
        });
    }

    private BrokerDb start() throws IOException, InterruptedException {
        pg = Postgres.get();
        BrokerDb db = BrokerDb.of(pg).declare(QUEUE);
        db.execute("CREATE TABLE IF NOT EXISTS " + ConsoleTableService.TABLE + " (id BIGSERIAL PRIMARY KEY,"
                + " body TEXT NOT NULL, attempts INT NOT NULL DEFAULT 0)");
        db.execute("ALTER TABLE " + ConsoleTableService.TABLE + " ADD COLUMN IF NOT EXISTS error TEXT");
        db.execute("ALTER TABLE " + ConsoleTableService.TABLE + " ADD COLUMN IF NOT EXISTS failed_at TIMESTAMP");
        ManualServer.resetBaseDir();
        ServerAdmin.addApplicationUser(ManualServer.baseDir().resolve("configuration"), VIEWER[0], VIEWER[1],
                "ssb-viewer");
        ServerAdmin.addApplicationUser(ManualServer.baseDir().resolve("configuration"), OPERATOR[0], OPERATOR[1],
                "ssb-operator");
        controller.start(ManualServer.QUALIFIER, ManualServer.config(""));
        deployer.deploy("failures-rar");
        deployer.deploy("failures-beans");
        deployer.deploy("failures-console");
        return db;
    }

    private void stop() {
        try {
            deployer.undeploy("failures-console");
            deployer.undeploy("failures-beans");
            deployer.undeploy("failures-rar");
        } finally {
            controller.stop(ManualServer.QUALIFIER);
        }
    }

    private static WebDriver browser(String[] user) {
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER);
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM)
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1300");
        WebDriver driver = new ChromeDriver(options);
        driver.get(base().replace("http://", "http://" + user[0] + ":" + user[1] + "@"));
        return driver;
    }

    /** Saves the page, scrolled to the section of that id, as target/console-screenshots/{@code name}. */
    private static void screenshot(WebDriver driver, String section, String name) throws IOException {
        ((JavascriptExecutor) driver).executeScript("document.getElementById('" + section + "').scrollIntoView();");
        Path dir = Path.of("target", "console-screenshots");
        Files.createDirectories(dir);
        Files.write(dir.resolve(name), ((org.openqa.selenium.TakesScreenshot) driver)
                .getScreenshotAs(org.openqa.selenium.OutputType.BYTES));
    }

    private static void setSystemProperty(String name, String value) {
        ModelNode op = Operations.createAddOperation(new ModelNode().add("system-property", name));
        op.get("value").set(value);
        ServerAdmin.manual(op);
    }

    private static String read(String[] user, String path) {
        try {
            return call("GET", user, path, false).body();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String base() {
        return "http://127.0.0.1:" + (8080 + Integer.getInteger("ssb.it.manualPortOffset", 100)) + "/ssb-jca-console/";
    }

    /** POSTs a JSON body as the console's page does (its header, the user's credentials). */
    private static HttpResponse<String> post(String[] user, String path, String json)
            throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString((user[0] + ":" + user[1])
                        .getBytes(StandardCharsets.UTF_8)))
                .header("X-SSB-Console", "1").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> call(String method, String[] user, String path, boolean csrfHeader)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString((user[0] + ":" + user[1])
                        .getBytes(StandardCharsets.UTF_8)));
        if (csrfHeader) {
            request.header("X-SSB-Console", "1");
        }
        request.method(method, HttpRequest.BodyPublishers.noBody());
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
