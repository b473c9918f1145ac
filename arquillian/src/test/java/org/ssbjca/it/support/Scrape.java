package org.ssbjca.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;

/** HTTP reads of the manual server's management endpoints (/metrics, /prometheus, /health) and their text. */
public final class Scrape {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private Scrape() {
    }

    /**
     * @param path a path on the manual server's management port, such as {@code /prometheus}
     * @return the response
     */
    public static HttpResponse<String> get(String path) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + Integer.getInteger("ssb.it.manualManagementPort", 10090) + path))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * @param text Prometheus text
     * @param name a metric name
     * @param labels label fragments the line must hold, such as {@code state="DI"}
     * @return the value of the first line of that metric holding every fragment, NaN when none does
     */
    public static double value(String text, String name, String... labels) {
        return text.lines().filter(l -> l.startsWith(name + "{") || l.startsWith(name + " "))
                .filter(l -> Arrays.stream(labels).allMatch(l::contains))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .findFirst().orElse(Double.NaN);
    }

    /**
     * @param text Prometheus text
     * @param prefix a metric name prefix
     * @return the lines whose metric starts with it
     */
    public static String lines(String text, String prefix) {
        return String.join("\n", text.lines().filter(l -> l.startsWith(prefix)).toList());
    }
}
