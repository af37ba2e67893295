# Build stage: compile the release binary.
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p app

# Runtime stage: the binary alone (settings files are embedded in it).
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home /srv app
WORKDIR /srv
COPY --from=build /src/target/release/app /usr/local/bin/app
USER app
ENV APP_ENV=production
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/app"]
CMD ["serve"]
