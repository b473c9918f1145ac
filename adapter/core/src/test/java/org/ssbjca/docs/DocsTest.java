package org.ssbjca.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.spi.ConfigProperty;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.ssbjca.adapter.ServiceBrokerResourceAdapter;
import org.ssbjca.inbound.ServiceBrokerActivationSpec;
import org.ssbjca.inbound.table.TableActivationSpec;
import org.ssbjca.management.ActivationMXBean;
import org.ssbjca.management.ResourceAdapterMXBean;
import org.ssbjca.management.TableActivationMXBean;
import org.ssbjca.outbound.ServiceBrokerManagedConnectionFactory;

/**
 * The manual holds together: every relative link of README.md and docs/ reaches a file (and, for a page, a heading),
 * every page is reachable from the README, and the README links the reference pages, which list every configuration
 * property and MXBean attribute and operation (the message ids and metrics are checked by {@code LogCatalogueTest}
 * and the monitoring module's {@code ReadmeMetricsTest}).
 */
class DocsTest {

    /** A markdown link or image: {@code [label](target)}; the label may hold a line break. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    /** The reference pages, one click from the README. */
    private static final List<String> REFERENCE = List.of("docs/reference/adapter-properties.md",
            "docs/reference/activation-properties.md", "docs/reference/table-properties.md",
            "docs/reference/mxbeans.md", "docs/reference/metrics.md", "docs/reference/messages.md");

    @Test
    void everyRelativeLinkReachesAFileAndItsHeading() throws IOException {
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path page : pages()) {
            for (String target : links(page)) {
                links++;
                Path file = target.startsWith("#") ? page
                        : page.getParent().resolve(target.replaceAll("#.*", "")).normalize();
                if (!Files.exists(file)) {
                    broken.add(name(page) + " -> " + target + ": no such file");
                    continue;
                }
                int hash = target.indexOf('#');
                if (hash >= 0 && file.toString().endsWith(".md")
                        && !anchors(Files.readString(file)).contains(target.substring(hash + 1))) {
                    broken.add(name(page) + " -> " + target + ": no such heading");
                }
            }
        }
        assertTrue(links > 100, links + " links read");
        assertEquals(List.of(), broken);
    }

    @Test
    void everyPageIsReachableFromTheReadme() throws IOException {
        Set<Path> seen = new LinkedHashSet<>();
        Deque<Path> next = new ArrayDeque<>(List.of(Docs.path("README.md")));
        while (!next.isEmpty()) {
            Path page = next.pop();
            if (!seen.add(page)) {
                continue;
            }
            for (String target : links(page)) {
                Path file = page.getParent().resolve(target.replaceAll("#.*", "")).normalize();
                if (file.toString().endsWith(".md") && file.startsWith(Docs.path("docs")) && Files.exists(file)) {
                    next.add(file);
                }
            }
        }
        List<String> orphans = new ArrayList<>();
        for (Path page : pages()) {
            if (!seen.contains(page)) {
                orphans.add(name(page));
            }
        }
        assertEquals(List.of(), orphans, "pages no link leads to from the README");
    }

    @Test
    void theReadmeLinksEveryReferencePage() throws IOException {
        Set<String> linked = new TreeSet<>();
        for (String target : links(Docs.path("README.md"))) {
            linked.add(target.replaceAll("#.*", ""));
        }
        for (String page : REFERENCE) {
            assertTrue(linked.contains(page), "README links " + page + ": " + linked);
        }
    }

    @Test
    void everyConfigPropertyIsARowOfItsReferencePage() {
        assertDocumented("docs/reference/adapter-properties.md", configProperties(ServiceBrokerResourceAdapter.class));
        assertDocumented("docs/reference/adapter-properties.md",
                configProperties(ServiceBrokerManagedConnectionFactory.class));
        assertDocumented("docs/reference/activation-properties.md",
                configProperties(ServiceBrokerActivationSpec.class));
        assertDocumented("docs/reference/table-properties.md", configProperties(TableActivationSpec.class));
    }

    @Test
    void everyMXBeanAttributeAndOperationIsOnTheMXBeansPage() {
        String page = Docs.page("docs/reference/mxbeans.md");
        List<String> missing = new ArrayList<>();
        int names = 0;
        for (Class<?> mxbean : List.of(ResourceAdapterMXBean.class, ActivationMXBean.class,
                TableActivationMXBean.class)) {
            for (Method m : mxbean.getMethods()) {
                String name = jmxName(m);
                names++;
                if (!page.contains("`" + name + "`") && !page.contains("`" + name + "(")) {
                    missing.add(mxbean.getSimpleName() + "." + name);
                }
            }
        }
        assertTrue(names >= 40, names + " attributes and operations read");
        assertEquals(List.of(), missing, "not on docs/reference/mxbeans.md");
    }

    /**
     * The user pages (README.md, docs/guide, docs/reference, docs/operations) name no test class: what a test shows
     * goes to docs/design. The sample's "Run it" lines, which name the test that runs each scenario, are the exception.
     */
    @Test
    void userPagesNameNoTest() throws IOException {
        Pattern test = Pattern.compile("(?<![-\\w.])[A-Z][a-z][A-Za-z0-9]*(Test|IT)\\b");
        List<String> named = new ArrayList<>();
        int lines = 0;
        for (Path page : pages()) {
            String name = name(page);
            if (!name.equals("README.md") && !name.startsWith("docs/guide/") && !name.startsWith("docs/reference/")
                    && !name.startsWith("docs/operations/")) {
                continue;
            }
            for (String line : Files.readString(page).lines().toList()) {
                lines++;
                Matcher m = test.matcher(line);
                if (m.find() && !line.startsWith("*Run it:*")) {
                    named.add(name + ": " + m.group());
                }
            }
        }
        assertTrue(lines > 1000, lines + " lines read");
        assertEquals(List.of(), named);
    }

    /** Every page the adapter's and the console's main code names ({@code docs/....md}, in messages too) exists. */
    @Test
    void everyPageTheCodeNamesExists() throws IOException {
        Pattern named = Pattern.compile("docs/[A-Za-z0-9_/-]+\\.md");
        List<String> missing = new ArrayList<>();
        int names = 0;
        for (String module : List.of("adapter/core/src/main/java", "console/src/main/java")) {
            try (Stream<Path> files = Files.walk(Docs.path(module))) {
                for (Path f : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    Matcher m = named.matcher(Files.readString(f));
                    while (m.find()) {
                        names++;
                        if (!Files.exists(Docs.path(m.group()))) {
                            missing.add(Docs.root().relativize(f) + " names " + m.group());
                        }
                    }
                }
            }
        }
        assertTrue(names >= 2, names + " pages named");
        assertEquals(List.of(), missing);
    }

    /**
     * The table queue recipe's two beans are the code {@code TableQueueIT} deploys: every line of the page's listing,
     * comments aside, is a line of {@code WorkItemListener} or {@code WorkItems}, in the same order.
     */
    @Test
    void theTableQueueRecipeIsTheCodeItsIntegrationTestDeploys() throws IOException {
        String recipe = Docs.section("docs/guide/table-queues.md", "## Recipe");
        String listing = recipe.substring(recipe.indexOf("```java\n") + 8);
        listing = listing.substring(0, listing.indexOf("\n```"));
        int split = listing.indexOf("@Stateless");
        String it = "arquillian/src/test/java/org/ssbjca/it/tables/";
        assertInOrder(code(listing.substring(0, split)),
                code(Files.readString(Docs.path(it + "WorkItemListener.java"))));
        assertInOrder(code(listing.substring(split)), code(Files.readString(Docs.path(it + "WorkItems.java"))));
    }

    /** @return the lines of Java code, stripped, without blank lines and comments */
    private static List<String> code(String java) {
        return java.lines().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("//") && !l.startsWith("/*") && !l.startsWith("*"))
                .toList();
    }

    private static void assertInOrder(List<String> listed, List<String> source) {
        assertTrue(listed.size() >= 15, "the listing was read: " + listed);
        int at = 0;
        for (String line : listed) {
            int found = source.subList(at, source.size()).indexOf(line);
            assertTrue(found >= 0, "the recipe's line is not in the source, in order: " + line);
            at += found + 1;
        }
    }

    /** @return the attribute's name for a getter ({@code getMaxReaders}, {@code isPaused}), else the operation's */
    private static String jmxName(Method m) {
        String n = m.getName();
        if (m.getParameterCount() == 0 && n.startsWith("get") && n.length() > 3) {
            return n.substring(3);
        }
        if (m.getParameterCount() == 0 && n.startsWith("is") && n.length() > 2
                && (m.getReturnType() == boolean.class || m.getReturnType() == Boolean.class)) {
            return n.substring(2);
        }
        if (m.getParameterCount() == 1 && n.startsWith("set") && n.length() > 3) {
            return n.substring(3);
        }
        return n;
    }

    private static void assertDocumented(String page, Set<String> properties) {
        String text = Docs.page(page);
        Set<String> documented = new TreeSet<>();
        text.lines().filter(l -> l.startsWith("| `")).forEach(row -> {
            Matcher names = Pattern.compile("`([a-zA-Z]+)`").matcher(row.split("\\|")[1]);
            while (names.find()) {
                documented.add(names.group(1));
            }
        });
        Set<String> missing = new TreeSet<>(properties);
        missing.removeAll(documented);
        assertTrue(properties.size() >= 3, "properties read: " + properties);
        assertEquals(Set.of(), missing, "properties without a row in " + page);
    }

    /** @return the names of a JavaBean's fields annotated {@link ConfigProperty}, up its class hierarchy */
    private static Set<String> configProperties(Class<?> type) {
        Set<String> names = new TreeSet<>();
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.isAnnotationPresent(ConfigProperty.class)) {
                    names.add(f.getName());
                }
            }
            for (Method m : c.getDeclaredMethods()) {
                if (m.isAnnotationPresent(ConfigProperty.class) && m.getName().startsWith("set")) {
                    names.add(Character.toLowerCase(m.getName().charAt(3)) + m.getName().substring(4));
                }
            }
        }
        return names;
    }

    /** @return README.md and every page under docs/ */
    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Docs.path("README.md")));
        try (Stream<Path> files = Files.walk(Docs.path("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** @return the relative link targets of a page, outside code blocks */
    private static List<String> links(Path page) throws IOException {
        List<String> targets = new ArrayList<>();
        StringBuilder prose = new StringBuilder();
        boolean fence = false;
        for (String line : Files.readString(page).lines().toList()) {
            if (line.startsWith("```")) {
                fence = !fence;
            } else if (!fence) {
                prose.append(line).append('\n');
            }
        }
        Matcher m = LINK.matcher(prose);
        while (m.find()) {
            String target = m.group(1);
            if (!target.matches("^[a-z]+:.*")) {
                targets.add(target);
            }
        }
        return targets;
    }

    /** @return the anchors GitHub gives a page's headings (lower case, punctuation dropped, spaces as hyphens) */
    static Set<String> anchors(String text) {
        Set<String> anchors = new TreeSet<>();
        boolean fence = false;
        for (String line : text.lines().toList()) {
            if (line.startsWith("```")) {
                fence = !fence;
            } else if (!fence && Docs.level(line) > 0) {
                anchors.add(line.substring(Docs.level(line) + 1).strip().toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-'));
            }
        }
        return anchors;
    }

    private static String name(Path page) {
        return Docs.root().relativize(page).toString();
    }
}
