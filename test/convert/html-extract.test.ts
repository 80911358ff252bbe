/**
 * Cleaning and main-content selection: what "main" removes and keeps, what "full" keeps, and
 * the guards that stop extraction from losing a page's content.
 */

import { describe, expect, it } from "vitest";
import { convertHtml } from "../../src/convert/html.js";

/** A paragraph of prose of about `n` hundred characters. */
function prose(label: string, n = 2): string {
  const sentence = `${label} is a sentence of ordinary prose, with commas, that reads like an article. `;
  return `<p>${sentence.repeat(n)}</p>`;
}

const PAGE = `<html><body>
<div class="cookie-banner"><p>We use cookies.</p></div>
<header><nav><a href="/">Home</a> <a href="/news">News</a></nav></header>
<main><article><h1>Title</h1>${prose("One")}${prose("Two")}</article></main>
<aside><h2>Popular</h2><p>Sidebar text.</p></aside>
<footer><p>Footer text.</p></footer>
</body></html>`;

describe("extract: main", () => {
  it("keeps the article and drops banners, navigation, sidebars and footers", () => {
    const { content } = convertHtml(PAGE);
    expect(content.startsWith("# Title\n\nOne is a sentence")).toBe(true);
    for (const gone of ["cookies", "Home", "Popular", "Sidebar", "Footer"]) {
      expect(content).not.toContain(gone);
    }
  });

  it("keeps everything visible with extract: full", () => {
    const { content } = convertHtml(PAGE, { extract: "full" });
    for (const kept of ["cookies", "[Home]", "# Title", "Popular", "Footer text."]) {
      expect(content).toContain(kept);
    }
  });

  it("removes a blog's comment section but keeps comments that are the page", () => {
    const blog = `<body><div class="post">${prose("Post", 4)}</div>
      <div id="comments" class="comments-area"><div class="comment"><p>Nice post!</p></div></div></body>`;
    expect(convertHtml(blog).content).not.toContain("Nice post");

    const thread = `<body><h1>Thread</h1><div class="comments">
      <div class="comment">${prose("First")}</div><div class="comment">${prose("Second")}</div>
      <div class="comment">${prose("Third")}</div></div></body>`;
    const { content } = convertHtml(thread);
    for (const kept of ["First", "Second", "Third"]) expect(content).toContain(kept);
  });

  it("keeps a class-matched element that holds most of the page (a restaurant menu)", () => {
    const html = `<body><div class="menu"><h2>Starters</h2>${prose("Soup")}<h2>Mains</h2>${prose("Fish")}</div><p>Open daily.</p></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Soup");
    expect(content).toContain("Fish");
  });

  it("falls back to the whole body when the declared root holds too little", () => {
    const html = `<body><main><p>Short teaser.</p></main><div>${prose("Real", 6)}</div></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Short teaser.");
    expect(content).toContain("Real is a sentence");
  });

  it("takes a declared article over a sidebar's live feed that outweighs it", () => {
    const feed = Array.from(
      { length: 30 },
      (_, i) =>
        `<li><span>12:${i}</span> <a href="/live/${i}">Update ${i}</a> <p>A short note on event ${i}, with a comma, as a live feed gives it.</p></li>`,
    );
    const html = `<body><div role="main"><article><h1>Earthquake</h1>${prose("Story", 6)}</article>
      <aside><div class="live"><a href="/live">Live</a><ul>${feed.join("")}</ul></div></aside></div></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Story is a sentence");
    expect(content).not.toContain("event 3,");
  });

  it("falls back to the body when the text beside a small declared article is not chrome", () => {
    const html = `<body><article><p>Short teaser of a story, with a comma.</p></article><div>${prose("Real", 6)}</div>
      <aside><p>Sidebar.</p></aside></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Real is a sentence");
  });

  it("takes a dominant article among several, but all articles of a listing", () => {
    const dominant = `<body><article>${prose("Main", 8)}</article><article><p>Teaser one.</p></article></body>`;
    expect(convertHtml(dominant).content).not.toContain("Teaser");

    const listing = `<body><div class="list">${["A", "B", "C", "D"]
      .map((x) => `<article class="card">${prose(x, 1)}</article>`)
      .join("")}</div></body>`;
    const { content } = convertHtml(listing);
    for (const x of ["A is", "B is", "C is", "D is"]) expect(content).toContain(x);
  });

  it("keeps every post of a thread whose posts are articles, however long the first", () => {
    const post = (who: string, n: number) =>
      `<article class="message message--post"><h4>${who}</h4>${prose(`${who} says`, n)}</article>`;
    const html = `<body><div class="thread"><h1>Squad 2024</h1>
      ${post("Opener", 12)}${post("Second", 1)}${post("Third", 1)}${post("Fourth", 1)}</div>
      <div class="sidebar"><p>${"Members online now. ".repeat(3)}</p></div></body>`;
    const { content } = convertHtml(html);
    for (const who of ["Opener", "Second", "Third", "Fourth"])
      expect(content).toContain(`${who} says`);
  });

  it.each([
    ["numbered", (i: number) => `postItem bg${(i % 2) + 1}`],
    ["striped odd and even", (i: number) => `message ${i % 2 ? "even" : "odd"}`],
  ])("keeps every post of a thread whose posts' classes alternate (%s) and nest deep", (_, cls) => {
    const post = (who: string, i: number) =>
      `<div class="${cls(i)}"><div class="author">${who}</div><div class="rcontent">
        <div class="wrap"><div class="body"><div class="postText">${`${who} writes a reply with commas, clauses, and detail. `.repeat(i === 0 ? 12 : 3)}</div></div></div></div></div>`;
    const html = `<body><div class="topic"><h1>Tiny houses</h1>
      ${["Travis", "Mike", "Dana", "Lee"].map(post).join("")}</div>
      <div class="nav"><a href="/a">Forums</a> <a href="/b">Search</a></div></body>`;
    const { content } = convertHtml(html);
    for (const who of ["Travis", "Mike", "Dana", "Lee"]) expect(content).toContain(`${who} writes`);
  });

  it("does not take a blog post's next posts, numbered by id, for a thread", () => {
    const next = (id: number) =>
      `<article class="post-${id} post type-post"><h2><a href="/p/${id}">Post ${id}</a></h2>
        <p>Teaser ${id} of another post, with a clause or two, to make it read.</p></article>`;
    const html = `<body><div id="primary"><article class="post-101 post type-post"><h1>Pruning roses</h1>
      ${prose("Roses", 8)}</article>${[202, 303, 404].map(next).join("")}</div></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Roses is a sentence");
    expect(content).not.toContain("Teaser 202");
  });

  it("takes a blog's feed left outside a small <main>, not only the featured post", () => {
    const card = (n: number) =>
      `<article class="card"><h2><a href="/p/${n}">Scaling the video pipeline for millions of viewers, part ${n}</a></h2>
        <p>How we cut costs by ${n}0%.</p></article>`;
    const html = `<body><main><h1>Tech blog</h1><p>Featured: how our recommendations work, from the first
      experiments with ratings to the models that rank every row of the home page today.</p></main>
      <section class="feed">${[1, 2, 3, 4, 5, 6, 7, 8].map(card).join("")}</section></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Featured: how our recommendations work");
    for (const n of [1, 5, 8]) expect(content).toContain(`part ${n}`);
  });

  it("reads an ad word in a BEM modifier as a note on the block, not as an ad slot", () => {
    const card = (n: number) =>
      `<article class="card${n === 6 ? " card--promoted" : ""}"><h2><a href="/n/${n}">Storm closes ${n} ports along the coast</a></h2>
        <p>The wind reaches ${n}0 knots; closures last until the weekend.</p></article>`;
    const topics = Array.from(
      { length: 40 },
      (_, i) => `<li><a href="/t/${i}">Topic number ${i}</a></li>`,
    );
    const html = `<body><main><h1>Weather</h1><p>Latest storm coverage from our desk.</p></main>
      <div class="container container--section-more-ads"><section class="feed">
      ${[1, 2, 3, 4, 5, 6].map(card).join("")}</section>
      <div class="ad-slot"><p>Buy the sponsor's raincoat today, now with free shipping on every order.</p></div></div>
      <ul class="topics">${topics.join("")}</ul><div class="more">${topics.join("")}</div></body>`;
    const { content } = convertHtml(html);
    for (const n of [1, 6]) expect(content).toContain(`Storm closes ${n} ports`);
    expect(content).not.toContain("sponsor's raincoat");
  });

  it("scores pages without landmarks and keeps content siblings", () => {
    const html = `<body><div id="nav"><a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a></div>
      <div id="story">${prose("Lead", 3)}${prose("Body", 3)}</div>
      <div class="links"><a href="/x">More</a> <a href="/y">Other</a></div></body>`;
    const { content } = convertHtml(html);
    expect(content.startsWith("Lead is")).toBe(true);
    expect(content).toContain("Body is");
    expect(content).not.toContain("More");
  });

  it("keeps an article's own header and a quote's footer, not the article's footer", () => {
    const html = `<body><article><header><h1>Headline</h1><p>By Someone</p></header>${prose("Text", 3)}
      <blockquote><p>Quoted.</p><footer>— Source</footer></blockquote>
      <footer><p>Tags: gardening, tools</p></footer></article></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("# Headline");
    expect(content).toContain("By Someone");
    expect(content).toContain("> — Source");
    expect(content).not.toContain("Tags:");
  });

  it("drops an author's bio and a forum signature even when they read as prose", () => {
    const html = `<body><div class="post-content">${prose("Post", 6)}
      <div class="entry-footer author-bio">${prose("Biography", 6)}</div>
      <div class="post-signature">${prose("Signature", 6)}</div></div></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Post is a sentence");
    expect(content).not.toContain("Biography");
    expect(content).not.toContain("Signature");
  });

  it("drops a bio that opens with the byline's name near the end, whatever its markup", () => {
    const page = (author: string) => `<html><head><meta name="author" content="${author}"></head>
      <body><article><h1>Growing tomatoes</h1>${prose("Tomato", 8)}
      <p>Jane Doe</p><p>Contributing Writer</p>
      <p>Jane Doe is a writer and editor who specializes in gardening, with twenty years of reporting behind her.</p>
      </article></body></html>`;
    const { content } = convertHtml(page("Jane Doe"));
    expect(content).toContain("Tomato is a sentence");
    for (const gone of ["Jane Doe", "Contributing Writer"]) expect(content).not.toContain(gone);
    // A company named as author, or another person, leaves the paragraph alone.
    for (const author of ["Acme", "John Smith", "The Garden Times"]) {
      expect(convertHtml(page(author)).content).toContain("Jane Doe is a writer");
    }
  });

  it("drops a bio headed by its person's name at the very end, with no byline", () => {
    const end = `<div class="name">Brian Becker</div>
      <p>Brian Becker is the co-founder of FlowCandy, a consultancy that helps brands master email.</p>`;
    const html = `<body><article><h1>Email flows</h1>${prose("Flow", 8)}${end}</article></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Flow is a sentence");
    expect(content).not.toContain("Brian Becker");
    // A list of people heads each entry with a name: an entry before more text stays.
    const people = `<h3>Jack Butcher</h3><p>Jack Butcher is a conceptual artist who plays with digital scarcity.</p>
      ${prose("Hockney", 3)}`;
    const list = `<body><article><h1>Artists</h1>${prose("Intro", 8)}${people}</article></body>`;
    expect(convertHtml(list).content).toContain("Jack Butcher is a conceptual artist");
    // A team page whose last entry ends it keeps that entry too.
    const member = (name: string) => `<div class="name">${name}</div>
      <p>${name} is a senior engineer who has built payment systems for fifteen years.</p>`;
    const team = `<body><main><h1>Meet the team</h1>${prose("Team", 8)}${member("John Smith")}${member("Ada Byron")}</main></body>`;
    expect(convertHtml(team).content).toContain("Ada Byron is a senior engineer");
  });

  it("keeps lists, code and reporting near a bio, and takes one bio only", () => {
    const head = `<html><head><meta name="author" content="Jane Doe"></head><body><article>
      <h1>Growing tomatoes</h1>${prose("Tomato", 8)}`;
    const html = `${head}<p>Jane Doe was clear about one thing: water in the morning, never at night.</p>
      <h2>What you need</h2><ul><li>Water daily</li><li>Prune weekly</li></ul><pre>npm run build</pre>
      <p>Jane Doe is a writer and editor who specializes in gardening, with twenty years behind her.</p>
      </article></body></html>`;
    const { content } = convertHtml(html);
    for (const kept of ["was clear", "What you need", "Prune weekly", "npm run build"]) {
      expect(content).toContain(kept);
    }
    expect(content).not.toContain("specializes in gardening");
  });

  it("returns nothing for a page whose only text is its header or footer", () => {
    const footer = `<footer><div class="about"><h2>About the shop</h2><p>${"Free shipping on every order. ".repeat(8)}</p>
      <ul>${Array.from({ length: 12 }, (_, i) => `<li><a href="/l/${i}">Footer link ${i}</a></li>`).join("")}</ul></div></footer>`;
    expect(convertHtml(`<body><div id="app"></div>${footer}</body>`).content).toBe("");
    const header = `<header><div class="menu-panel"><p>${"Shop our new spring range today. ".repeat(8)}</p></div></header>`;
    expect(convertHtml(`<body><div id="app"></div>${header}</body>`).content).toBe("");
    // A section's own header is the section's: a standfirst in it is content.
    const standfirst = `<p>${"A long standfirst sentence, with commas, that reads as prose. ".repeat(6)}</p>`;
    const section = `<body><section><header><div class="standfirst">${standfirst}${standfirst}</div></header></section></body>`;
    expect(convertHtml(section).content).toContain("A long standfirst sentence");
  });

  it("leaves out the opening heading that repeats the title, and only that one", () => {
    const page = (head: string, body: string) =>
      `<html><head><title>${head}</title></head><body><article>${body}${prose("Story", 4)}</article></body></html>`;
    // Case and runs of whitespace aside, the heading is the title: the result carries it.
    const same = convertHtml(
      page("Rivers return to the city", "<h1>Rivers  return to the City</h1>"),
    );
    expect(same.title).toMatch(/^Rivers return to the city$/i);
    expect(same.content).not.toContain("# Rivers");
    expect(same.content.startsWith("Story is a sentence")).toBe(true);
    // A heading that says more than the title, or one after the content's first text, stays.
    const other = convertHtml(
      page(
        "Rivers return to the city",
        "<h1>Rivers return to the city, and the fish follow them upstream</h1>",
      ),
    );
    expect(other.content).toContain(
      "# Rivers return to the city, and the fish follow them upstream",
    );
    const later = convertHtml(
      page(
        "Rivers return",
        `<p>${"A lead paragraph, before the heading. ".repeat(3)}</p><h2>Rivers return</h2>`,
      ),
    );
    expect(later.content).toContain("## Rivers return");
    // The whole page is the whole page.
    const full = convertHtml(page("Rivers return", "<h1>Rivers return</h1>"), { extract: "full" });
    expect(full.content).toContain("# Rivers return");
  });

  it("returns nothing for a page whose only text is a footer built of <div>s and named so", () => {
    const columns = ["About us", "Support", "Programs"].map(
      (title) =>
        `<div class="col"><div class="col-title">${title}</div>${Array.from({ length: 6 }, (_, i) => `<div class="item">${title} entry number ${i}</div>`).join("")}</div>`,
    );
    const blurb = `<div class="signup"><p>${"Stay ahead of every sale and sign up for early alerts. ".repeat(3)}</p></div>`;
    const footer = `<div class="container-part-footer"><div class="inner">${columns.join("")}${blurb}</div></div>`;
    const page = (name: string) =>
      `<body><div id="app"><div class="spinner">Loading</div></div>${footer.replace("container-part-footer", name)}</body>`;
    expect(convertHtml(page("container-part-footer")).content).toBe("");
    // A name that denies being the footer is not one.
    expect(convertHtml(page("wsite-not-footer")).content).toContain("Support entry number 3");
  });

  it("drops account prompts and calls to action standing alone, not inside a sentence", () => {
    const html = `<body><article><h1>Pruning roses</h1>${prose("Roses", 4)}
      <p><a href="/login">Log in</a></p><p>Create an account</p><p><a href="/c">Contact us</a></p>
      <p><a href="/start" class="link">Get started today</a></p><div><a href="/more">Continue reading</a></div>
      <p>Sort by: Featured</p><p>Filters</p><div><a href="/all">Show more</a></div><p><a href="/x">Learn more</a></p>
      <p>You need to log in to the garden portal before ordering, as the shop explains.</p>
      ${prose("Pruning", 2)}</article></body>`;
    const { content } = convertHtml(html);
    const gone = ["Log in", "Create an account", "Contact us", "Get started", "Continue reading"];
    for (const label of [...gone, "Sort by", "Filters", "Show more", "Learn more"]) {
      expect(content).not.toContain(label);
    }
    expect(content).toContain("You need to log in to the garden portal");
  });

  it("drops a call-to-action link standing on its own line under a paragraph", () => {
    const html = `<body><article><h1>Training at scale</h1>${prose("Training", 4)}
      <div class="cta"><h2>Centralize your training</h2><p>One place for every course, with reports.</p>
      <a href="/demo">Book a demo</a></div>
      <p>Ask us to <a href="/demo">book a demo</a> and we will.</p>
      <div><a class="cmp-button" href="/bi">Learn more about business intelligence services</a></div>
      <div><a class="cmp-teaser__action-link" href="/blog/falcon">Read blog</a></div>
      <p>Start with <a class="btn" href="/guide">The complete field guide to data warehousing for small and mid-size teams</a>, free.</p>
      <div><a class="post-actions" href="/a">Ask the author</a></div>
      ${prose("Closing", 2)}</article></body>`;
    const { content } = convertHtml(html);
    expect(content).not.toMatch(/^\[Book a demo\]/m);
    expect(content).not.toContain("business intelligence");
    expect(content).not.toContain("Read blog");
    expect(content).toContain("The complete field guide");
    expect(content).toContain("Ask the author");
    expect(content).toContain("[book a demo](/demo) and we will");
  });

  it("drops sign-in prompts, price buttons, list controls and newsletter prompts", () => {
    const html = `<body><article><h1>Best trail shoes</h1>${prose("Shoes", 4)}
      <p><a href="/r">Check price at REI</a></p><p>Results per page:</p><p>Filter &amp; Sort</p>
      <p>You must log in or register to reply here.</p><p>Already have an account? Sign in here.</p>
      <p>For daily tips, sign up for the Trail newsletter.</p><p>Get the FREE eBook!</p>
      <p>Register Here</p><p>Get a Quote</p><p>Pin this for later!</p><p>Stay connected!</p>
      <p>Follow the author</p><p>Article continues below</p><p>Shop now</p><p>Sign in or join</p>
      <p>Did you find this content helpful?</p><p>Thank you for your feedback!</p>
      <p><a href="/g">Add Trailnews as a preferred source on Google</a> to see more of us.</p>
      <p>Runners who register here for the race get a shirt, the organisers say.</p>
      <p>Add your site on Google Search Console and submit the sitemap.</p>
      <p>Sign up for a free account at the club and verify your email.</p>
      <p>Register at the county office to request a permit for the event.</p>
      <h2>Get your free trail map</h2><p>Every ranger station hands them out, no questions asked.</p>
      <p>Brokers earn a commission, i.e. a share of each sale, and our readers should know it.</p>
      ${prose("Closing", 2)}</article></body>`;
    const { content } = convertHtml(html);
    for (const label of [
      "Check price",
      "Results per page",
      "Filter & Sort",
      "must log in",
      "Already have",
      "newsletter",
      "eBook",
      "Register Here",
      "Get a Quote",
      "Pin this",
      "preferred source",
      "Stay connected",
      "Follow the author",
      "continues below",
      "Shop now",
      "Sign in or join",
      "content helpful",
      "your feedback",
    ]) {
      expect(content).not.toContain(label);
    }
    expect(content).toContain("Runners who register here for the race");
    for (const kept of [
      "Add your site on Google Search Console",
      "Sign up for a free account at the club",
      "Register at the county office to request",
      "Get your free trail map",
      "Brokers earn a commission",
    ]) {
      expect(content).toContain(kept);
    }
  });

  it("drops a site's affiliate disclosure, not an article's sentence about affiliates", () => {
    const html = `<body><article><h1>Best laptops</h1>
      <p>We may earn a commission when you buy through links on this page.</p>${prose("Laptops", 4)}
      <p>Affiliate programs pay bloggers a share of each sale, which critics say biases reviews.</p>
      <p><em>As an Amazon Associate I earn from qualifying purchases.</em></p>${prose("Closing", 2)}</article></body>`;
    const { content } = convertHtml(html);
    expect(content).not.toContain("We may earn a commission");
    expect(content).not.toContain("qualifying purchases");
    expect(content).toContain("Affiliate programs pay bloggers");
  });

  it("drops a sign-up form's fine print, not a sentence that starts the same way", () => {
    const html = `<body><article><h1>Deals</h1>${prose("Deal", 4)}
      <p>By signing up, you agree to receive recurring automated SMS marketing messages at the number provided.</p>
      <p>By clicking Subscribe you consent to Example Inc. processing your personal information.</p>
      <p>By clicking the button several times, you'll see the promises being fulfilled one by one.</p>
      ${prose("Closing", 2)}</article></body>`;
    const { content } = convertHtml(html);
    expect(content).not.toContain("recurring automated SMS");
    expect(content).not.toContain("processing your personal information");
    expect(content).toContain("promises being fulfilled");
  });

  it("drops a noscript's 'enable JavaScript' notice and unwraps a noscript that is the page", () => {
    const notice = `<noscript><div class="alert"><p>Your browser does not seem to support JavaScript. As a
      result, your viewing experience will be diminished, and you have been placed in read-only mode.</p>
      <p>Please download a browser that supports JavaScript, or enable it if it's disabled.</p></div></noscript>`;
    const html = `<body><main><h1>Release notes</h1>${prose("Release", 4)}${notice}${prose("Fixes", 4)}</main></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Release is a sentence");
    expect(content).not.toContain("support JavaScript");

    const crawlerView = `<body><div id="app"></div><noscript><h1>Thread</h1>${prose("Reply", 4)}</noscript></body>`;
    expect(convertHtml(crawlerView).content).toContain("Reply is a sentence");
  });

  it("drops a noscript whose text is escaped markup, and keeps one of prose that names a tag", () => {
    const widget = `&lt;span id="reply-count" class="text-small mlm mrn"&gt;146&lt;span class="icon icon-bubble-round oversized"&gt;&lt;/span&gt;&lt;/span&gt;&lt;a class="reply-to-post reply-count hover-icon readonly-hide" href="#"&gt;Reply&lt;/a&gt;&lt;span class="js_like_count"&gt;36&lt;/span&gt;`;
    const html = `<body><main><h1>Review</h1>${prose("Review", 4)}<noscript>${widget}</noscript>${prose("Verdict", 2)}</main></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Verdict is a sentence");
    expect(content).not.toContain("reply-count");

    const guide = `<body><div id="app"></div><noscript><h1>Forms</h1>${prose("Form", 3)}<p>Wrap each field in &lt;label&gt; and group them in &lt;fieldset&gt;.</p></noscript></body>`;
    expect(convertHtml(guide).content).toContain("group them in");
  });

  it("drops photo captions and credits on articles, and keeps a quote's caption", () => {
    const html = `<body><article><h1>Trail gear</h1>${prose("Gear", 3)}
      <figure><img src="/a.jpg" alt="A tent at dawn"><figcaption>Credit: Jane Photographer</figcaption></figure>
      <div class="photo-caption">The tent we pitched on the ridge, in a strong wind.</div>
      <span class="image-credit">Photo by John Lens</span>
      <figure><blockquote><p>Go light.</p></blockquote><figcaption>Ray Jardine</figcaption></figure>
      ${prose("More", 2)}</article></body>`;
    const { content } = convertHtml(html);
    for (const gone of ["Jane Photographer", "pitched on the ridge", "John Lens"]) {
      expect(content).not.toContain(gone);
    }
    expect(content).toContain("Ray Jardine");
    expect(content).toContain("A tent at dawn");
  });

  it("judges a button link by its text once the screen-reader echo in it is gone", () => {
    const label = "Download the complete trail guide";
    const html = `<body><article><h1>Trail gear</h1>${prose("Gear", 3)}
      <div><a class="btn" href="/guide">${label} <span>${label}</span></a></div>
      ${prose("More", 2)}</article></body>`;
    expect(convertHtml(html).content).not.toContain(label);
  });

  it("looks for captions in what is left once the buttons are gone", () => {
    const html = `<body><article><h1>Trail gear</h1>${prose("Gear", 3)}
      <figure><a class="btn" href="/buy"><img src="/b.jpg" alt="Buy"></a><figcaption>Stove kit, two burners</figcaption></figure>
      <figure><blockquote><p>Pack less.</p></blockquote><figcaption>As <span class="photo-credit">Emma Gatewood</span> said <a class="btn" href="/more">Her story</a></figcaption></figure>
      <figure><div class="image-credit"><img src="/c.jpg" alt="Cairn"></div><figcaption>Credit: Rock Shooter</figcaption></figure>
      ${prose("More", 2)}</article></body>`;
    const { content } = convertHtml(html);
    // The figure's only image was in a button: its caption is text.
    expect(content).toContain("Stove kit, two burners");
    // A quote's caption stays whole but for its button, credit-named parts too.
    expect(content).toContain("Emma Gatewood");
    expect(content).not.toContain("Her story");
    // The image in a credit still makes the figure's caption a photo's.
    expect(content).not.toContain("Rock Shooter");
  });

  it("keeps what class names call chrome when trusting them would leave next to nothing", () => {
    const cards = Array.from(
      { length: 8 },
      (_, i) =>
        `<li><h3>Mower KR${i}</h3><p>Robotic mower for ${i + 1} acres</p><p>$${i}99</p></li>`,
    );
    const menu = Array.from({ length: 30 }, (_, i) => `<a href="/m/${i}">Menu entry ${i}</a>`);
    const html = `<body><header><nav>${menu.join(" ")}</nav></header>
      <section class="related-product"><ul>${cards.join("")}</ul></section>
      <footer><p>${"Company address and legal notice. ".repeat(12)}</p></footer></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Mower KR0");
    expect(content).toContain("Robotic mower for 8 acres");
  });

  it("keeps a directory of links that a class name calls a header when nothing else is left", () => {
    const items = Array.from(
      { length: 40 },
      (_, i) => `<li><a href="/p/${i}">Launched product number ${i}, a tool for teams</a></li>`,
    );
    const html = `<body><header><a href="/">Home</a></header>
      <div class="pt-header"><h1>Top products launching today</h1><ul>${items.join("")}</ul></div>
      <footer><p>${"Copyright and links. ".repeat(80)}</p></footer></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Launched product number 0");
    expect(content).toContain("Launched product number 39");
  });

  it("removes ad, share and consent widgets by class, without matching ordinary words", () => {
    const html = `<body><article>${prose("Text", 3)}
      <div class="ad-slot">AD ONE</div><div id="ads">AD TWO</div><div class="share-tools">SHARE</div>
      <div class="onetrust-consent-sdk">CONSENT</div>
      <div class="download-box shadow"><p>Download box stays.</p></div>
      <div class="address"><p>Address stays.</p></div></article></body>`;
    const { content } = convertHtml(html);
    for (const gone of ["AD ONE", "AD TWO", "SHARE", "CONSENT"])
      expect(content).not.toContain(gone);
    expect(content).toContain("Download box stays.");
    expect(content).toContain("Address stays.");
  });

  it("reads no ad slot in generated names that happen to hold 'ad'", () => {
    const html = `<body><article>${prose("Text", 3)}
      <div class="elementor-element elementor-element-ad2c87f"><p>Elementor block stays.</p></div>
      <div class="block-8b12d038-81ff-4352-ad15-30e5cd82b0a9"><p>UUID block stays.</p></div>
      <h2 class="kt-adv-heading356_9c83af-2d">Kadence heading stays</h2>
      <div class="ad2">AD SLOT TWO</div><div class="adv-box">ANNUNCIO</div>
      <div class="ad300x250">AD SLOT SIZED</div></article></body>`;
    const { content } = convertHtml(html);
    for (const kept of ["Elementor block stays.", "UUID block stays.", "Kadence heading stays"])
      expect(content).toContain(kept);
    expect(content).not.toContain("AD SLOT TWO");
    expect(content).not.toContain("ANNUNCIO");
    expect(content).not.toContain("AD SLOT SIZED");
  });

  it("keeps headings whose class, or their link's, says 'header' or 'toc' of themselves", () => {
    const html = `<body><article>${prose("Text", 3)}
      <h2 class="wp-block-heading toc">Listed in the contents</h2>${prose("Listed", 1)}
      <h3 class="code-header">impl Clone for Result</h3>${prose("Impl", 1)}
      <h3 class="accordion-header">What does it cost?</h3>${prose("Cost", 1)}
      <h2 class="widget-title">${"A long widget title that reads as prose, with commas, ".repeat(10)}</h2>
      <h2><a class="header" href="#heap">The Stack and the Heap</a></h2>${prose("Heap", 1)}
      <div class="toc"><a href="#a">CONTENTS LINK</a></div>
      <div class="header"><a href="/">HOME LINK</a></div></article></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("## Listed in the contents");
    expect(content).toContain("### impl Clone for Result");
    expect(content).toContain("### What does it cost?");
    expect(content).toContain("## [The Stack and the Heap](#heap)");
    expect(content).not.toContain("CONTENTS LINK");
    expect(content).not.toContain("HOME LINK");
  });

  it("reads no chrome in an id made from a section's own title", () => {
    const html = `<body><article>${prose("Text", 3)}
      <section id="respond-to-review-comments"><h2>Respond to review comments</h2>
      ${prose("Review", 2)}</section>
      <h2 class="what-share-of-teens-read">What share of teens read?</h2>${prose("Share", 1)}
      <div id="related-posts-box"><p>RELATED POSTS</p></div></article></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("## Respond to review comments\n\nReview is a sentence");
    expect(content).toContain("## What share of teens read?");
    expect(content).not.toContain("RELATED POSTS");
  });

  it("keeps a highlighter's comment tokens in code", () => {
    const html = `<body><article>${prose("Text", 3)}
      <pre><code class="language-bash"><span class="hljs-comment"># initialize git</span>
git init</code></pre>
      <p>Inline <code><span class="token comment">/* note */</span> x()</code> too.</p>
      <pre class="comments">${"log line of a build, kept as it is\n".repeat(60)}</pre>
      <div class="comments"><p>A READER SAID</p></div></article></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("```bash\n# initialize git\ngit init\n```");
    expect(content).toContain("`/* note */ x()`");
    expect(content).not.toContain("A READER SAID");
  });

  it("keeps text that no element holds on a hand-written page, with its links and italics", () => {
    const loose = (n: number) =>
      `Loose paragraph ${n} tells how the problem was first posed, in a book from 1721, and how
      it was solved. See <a href="/scan${n}.html">the scanned pages</a> and <i>the emblems</i>.`;
    const html = `<body><h1>The Fold-and-Cut Problem</h1>
      <h2>History</h2><div class="float"><img src="a.jpg" alt="">
      <p>Figure: a crest folded flat and cut once, from the book's third page, redrawn.</p></div>
      ${loose(1)}<p>${loose(2)}<p>${loose(3)}
      <h2>Theorem</h2><p>${loose(4)}<p>${loose(5)}</body>`;
    const { content } = convertHtml(html, { url: "https://example.com/foldcut" });
    expect(content).toContain(
      "Loose paragraph 1 tells how the problem was first posed, in a book from 1721, and how it was solved. See [the scanned pages](https://example.com/scan1.html) and *the emblems*.",
    );
    expect(content).toContain("Loose paragraph 5");
  });

  it("keeps the prose around a table that holds most of the page's text", () => {
    const rows = Array.from(
      { length: 40 },
      (_, i) =>
        `<tr><td>Bill total of ${i * 5 + 10} dollars</td><td>A tip of ${i + 1} dollars and 50 cents</td></tr>`,
    );
    const html = `<body><nav><a href="/">Home</a><a href="/blog">Blog</a></nav>
      <div class="wrap"><div class="inner"><h1>Tip chart</h1>
      <p>Deciding how much to tip can feel like a math problem, so here is a chart of the usual tips.</p>
      <div class="responsive-table"><table>${rows.join("")}</table></div>
      <p>Round up when the service was good, and tip in cash where you can.</p></div></div></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Deciding how much to tip");
    expect(content).toContain("Bill total of 205 dollars");
    expect(content).toContain("Round up when the service was good");
  });

  it("takes the lead before a wrapped body holding most of the page, not the prose after it", () => {
    // The body's wrapper adds no text; the intro sits beside it, the author's note after it.
    const html = `<body><nav><a href="/">Home</a><a href="/blog">Blog</a></nav>
      <div class="column"><h1>Tipping guide</h1>${prose("Lead", 2)}
      <div class="embed"><div class="richtext">${prose("Body", 4)}${prose("More", 4)}</div></div>
      <div class="card"><p>Jane Doe runs a cleaning company in Denver. She holds an MBA and writes about small business, service and money.</p></div>
      </div><footer><p>Copyright.</p></footer></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Lead is a sentence");
    expect(content).toContain("More is a sentence");
    expect(content).not.toContain("Jane Doe");
  });

  it("takes the lead before a body wrapped with a 'Read more' link, not only the body", () => {
    // A mobile page folds the rest of the story behind a link; the lead sits before the fold.
    const html = `<body><nav><a href="/">Home</a><a href="/news">News</a></nav>
      <div class="wrap"><h1>Surveillance laws</h1>${prose("Lead", 2)}
      <div id="fold"><div><a href="#">Read more</a></div>
      <div id="rest">${prose("Body", 4)}${prose("More", 4)}</div></div>
      <div class="card"><p>Jane Doe is a political editor who writes a weekly column on law and order.</p></div>
      </div><footer><p>Copyright.</p></footer></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Lead is a sentence");
    expect(content).toContain("More is a sentence");
    expect(content).not.toContain("Jane Doe");
  });

  it("does not climb into a footer to take the text before it as the footer's lead", () => {
    const links = Array.from({ length: 12 }, (_, i) => `<li><a href="/l/${i}">Link ${i}</a></li>`);
    const html = `<body><p>Our store is open seven days a week, from nine, and we ship across Europe.</p>
      <div id="app"></div><footer><div class="about"><h2>About the shop</h2>
      <p>${"Free shipping on every order. ".repeat(8)}</p><ul>${links.join("")}</ul></div></footer></body>`;
    expect(convertHtml(html).content).not.toContain("About the shop");
  });

  it("does not take a sibling block of other posts' linked titles and summaries as content", () => {
    const teaser = (n: number) =>
      `<h2><a href="/news/${n}">Another story number ${n} about travel and airlines</a></h2>
      <p>A summary of story ${n} that reads as prose, with commas, clauses and a full stop at the end. It goes on for a while, as summaries do, to draw the reader in.</p>`;
    const team = (n: number) =>
      `<h3><a href="/team/${n}">Person ${n}</a></h3><p>Director of the office number ${n}, who has led the team for years.</p>`;
    const page = (other: string) => `<body><div class="page">
      <div class="story"><h1>Rental cars</h1>${prose("Car", 6)}</div>
      <div class="more">${other}</div></div></body>`;
    const { content } = convertHtml(page([1, 2, 3].map(teaser).join("")));
    expect(content).toContain("Car is a sentence");
    expect(content).not.toContain("Another story");
    // Short linked headings are names over a team's bios, part of a page like any prose.
    expect(convertHtml(page([1, 2, 3].map(team).join(""))).content).toContain("Person 2");
  });

  it("reads 'Join' and 'Sign up' headings of instructions as content, of newsletters as not", () => {
    const html = `<body><article><h1>Send an SMS</h1>${prose("Intro", 2)}
      <h2>Sign up for Twilio and get a phone number</h2><p>Step one: create a free account.</p>
      <h2>Join the surfaces</h2><p>Select both surfaces, then click Join on the Edit menu.</p>
      <h2>Sign up users with email and password</h2><p>Call the sign-up method.</p>
      <h2>Subscribe to updates from a WebSocket</h2><p>Listen for message events.</p>
      <h2>Subscribe to our weekly e-newsletter</h2><p>NEWSLETTER PITCH for every inbox.</p>
      <h2>Join 800,000+ readers</h2><p>READERS PITCH every week.</p>
      <h2>Join the discussion</h2><p>DISCUSSION PROMPT for readers.</p></article></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("## Sign up for Twilio and get a phone number\n\nStep one");
    expect(content).toContain("## Join the surfaces\n\nSelect both surfaces");
    expect(content).toContain("## Sign up users with email and password\n\nCall");
    expect(content).toContain("## Subscribe to updates from a WebSocket\n\nListen");
    expect(content).not.toContain("NEWSLETTER PITCH");
    expect(content).not.toContain("READERS PITCH");
    expect(content).not.toContain("DISCUSSION PROMPT");
  });

  it("keeps the prose header of a card or section, not the page's header", () => {
    const html = `<body><div class="site-header"><p>Free shipping on every order over fifty dollars, today and every day of the week, from all stores.</p></div>
      <main><div class="category-header_description"><h1>THC gummies</h1>
      <p>With our gummies you are always one bite away from deep, blissful relaxation, day or night.</p></div>
      ${prose("Card", 3)}</main></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("one bite away from deep, blissful relaxation");
    expect(content).not.toContain("Free shipping");
  });

  it("keeps a section's header that holds only its title", () => {
    const html = `<body><div class="site-header"><h2>Acme Legal</h2></div><main>${prose("Intro", 3)}
      <div class="tr-Header-heading"><div><h2>Our services</h2></div></div>${prose("Services", 3)}
      </main></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("## Our services\n\nServices is");
    expect(content).not.toContain("Acme Legal");
  });

  it("keeps a product card's overlay link, the card's click target and its name", () => {
    const card = (
      name: string,
    ) => `<div class="product-card"><figure><img src="/${name}.jpg" alt="">
      <a class="product-card__link-overlay" href="/t/${name}">${name} Road Running Shoes</a></figure>
      <div class="product-card__price">$160</div></div>`;
    const html = `<body><main><h1>Running shoes</h1>${prose("Intro", 2)}
      ${["Vomero", "Pegasus", "Structure"].map(card).join("")}
      <div class="modal-overlay"><p>Sign up for emails and get 10% off.</p></div></main></body>`;
    const { content } = convertHtml(html);
    for (const name of ["Vomero", "Pegasus", "Structure"])
      expect(content).toContain(`${name} Road`);
    expect(content).not.toContain("Sign up for emails");
  });

  it("reads a BEM element named for a header as its block's, not the page's", () => {
    const html = `<body><div class="site-header__inner"><p>Free shipping on every order over fifty dollars.</p></div>
      <main>${prose("Intro", 3)}<div class="section-master"><div class="section-master__layout-header">
      <h2>Overview</h2><p>Build and deploy serverless apps at scale.</p></div>${prose("Functions", 3)}</div></main></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("## Overview\n\nBuild and deploy serverless apps at scale.");
    expect(content).not.toContain("Free shipping");
  });

  it("keeps a card's linked header when its heading is all of it", () => {
    const job = (title: string, company: string) => `<li><a href="/jobs/${company}">
      <div class="new-listing__header"><h3>${title}</h3></div>
      <p class="company">${company}, remote, full-time, posted this week</p></a></li>`;
    const jobs = [
      job("Senior Ruby on Rails Developer", "OnTheGo"),
      job("Software Engineer", "Walter"),
    ];
    const html = `<body><main><h1>Full-stack jobs</h1>${prose("Intro", 2)}<ul>${jobs.join("")}
      ${job("Staff Data Engineer", "Sticker")}</ul></main></body>`;
    const { content } = convertHtml(html);
    for (const title of [
      "Senior Ruby on Rails Developer",
      "Software Engineer",
      "Staff Data Engineer",
    ]) {
      expect(content).toContain(title);
    }
  });

  it("drops what Webflow hides by a CMS condition", () => {
    const html = `<body><article>${prose("Text", 3)}
      <div class="blog-post_author w-condition-invisible"><p>EMPTY AUTHOR SLOT</p></div>
      <div class="blog-post_cta"><p>Visible closing words.</p></div></article></body>`;
    const { content } = convertHtml(html);
    expect(content).not.toContain("EMPTY AUTHOR SLOT");
    expect(content).toContain("Visible closing words.");
  });

  it("drops related posts whose summaries read as prose", () => {
    const teaser = (n: number) =>
      `<div class="post-summary"><a href="/blog/p${n}"><h3>Teaser title ${n}</h3></a>
      <p>TEASER SUMMARY ${n}: every developer knows the rush of an idea that arrives while driving, and the long, quiet road that follows it until the thing is finally built.</p></div>`;
    const html = `<body><article><h1>Post</h1>${prose("Text", 12)}
      <div class="related-reading"><h2>On a related note</h2>${[1, 2, 3].map(teaser).join("")}</div>
      </article></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Text is a sentence");
    expect(content).not.toContain("TEASER SUMMARY");
  });

  it("wraps only inline runs as loose text: a centred title and a linked card stay blocks", () => {
    const loose = (n: number) =>
      `Loose words ${n} that run on for a while, with commas, as an old page writes them.`;
    const centred = convertHtml(
      `<body><center><h1>Fold and cut</h1></center>${loose(1)}<hr><p>${loose(2)}</p><p>${loose(3)}</p></body>`,
    ).content;
    expect(centred).toMatch(/^# Fold and cut\n\nLoose words 1 [^\n]*\n\n---\n\nLoose words 2/);
    const card = convertHtml(
      `<body><main><div>${loose(1)} <b>Bold</b><a href="/c"><div><h3>Card title</h3><p>${loose(2)}</p></div></a>${loose(3)}</div></main></body>`,
    ).content;
    expect(card).toContain("**Bold**\n\n### [Card title](/c)\n\nLoose words 2");
  });

  it("drops remarks marked up as comments on a Q&A site's answer, not a forum's replies", () => {
    const remark = (n: number) =>
      `<div itemprop="comment" itemscope itemtype="https://schema.org/Comment"><div class="fs-body1">REMARK ${n} asks the author to say more.</div></div>`;
    const answer = (n: number) =>
      `<div itemprop="suggestedAnswer" itemscope itemtype="https://schema.org/Answer"><div class="s-prose">${prose(`Answer${n}`, 2)}</div><h2>2 Comments</h2><div role="list">${remark(n)}${remark(n + 10)}</div></div>`;
    const qa = convertHtml(
      `<body><main><div itemscope itemtype="https://schema.org/QAPage">${answer(1)}${answer(2)}</div></main></body>`,
      { url: "https://stackoverflow.com/questions/1/x" },
    ).content;
    expect(qa).toContain("Answer1 is a sentence");
    expect(qa).toContain("Answer2 is a sentence");
    expect(qa).not.toContain("REMARK");
    const reply = (n: number) =>
      `<div itemprop="comment" itemscope itemtype="https://schema.org/Comment"><p>REPLY ${n} with an opinion of its own, long enough to read as a post.</p></div>`;
    const thread = convertHtml(
      `<body><main><div itemscope itemtype="https://schema.org/DiscussionForumPosting">${prose("Post", 2)}${reply(1)}${reply(2)}</div></main></body>`,
      { url: "https://forum.example.com/t/x/1" },
    ).content;
    expect(thread).toContain("REPLY 1");
  });

  it("puts React's streamed segments where their placeholders are, without the fallback", () => {
    const html = `<body><main><h1>Guide</h1><!--$?--><template id="B:0"></template>
      <p>Loading…</p><!--/$--><p>Closing words of the guide, after the streamed part.</p></main>
      <div hidden id="S:0">${prose("Streamed", 3)}</div>
      <script>$RC("B:0","S:0")</script></body>`;
    const { content } = convertHtml(html);
    expect(content).toMatch(/^# Guide\n\nStreamed is a sentence[\s\S]*\n\nClosing words/);
    expect(content).not.toContain("Loading");
  });

  it("keeps a page marked aria-hidden behind a dialog, and drops hidden decoration", () => {
    const html = `<body><div role="dialog"><p>Accept cookies?</p></div>
      <main aria-hidden="true"><h1>Item</h1>${prose("Item", 3)}
      <span aria-hidden="true">DECORATION</span></main></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Item is a sentence");
    expect(content).not.toContain("DECORATION");
  });

  it("keeps the link lists that say something else in each card, not a widget alike in all", () => {
    const names = ["Ada Byron", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov"];
    const card = (n: number) => `<dt><a href="/abs/${n}">arXiv:${n}</a></dt><dd>
      <div class="list-title">Paper ${n}: a study of agents, with results, that reads as a title</div>
      <div class="list-authors">${names.map((name) => `<a href="/a/${n}${name}">${name} ${n}</a>`).join(", ")}</div>
      <div class="stars">${[1, 2, 3, 4, 5].map((k) => `<a href="/rate/${n}/${k}">${k} of 5 stars</a>`).join("")}</div></dd>`;
    const topics = ["AI", "Vision", "Robotics", "Theory", "Systems", "Graphics"];
    const html = `<body><main><h1>Recent submissions</h1>
      <dl>${[1, 2, 3, 4].map(card).join("")}</dl>
      <div class="topics">${topics.map((t) => `<a href="/t/${t}">${t}</a>`).join(" ")}</div></main></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Grace Hopper 3");
    expect(content).not.toContain("of 5 stars");
    expect(content).not.toContain("Robotics");
  });

  it("drops a menu larger than the page it serves, and keeps a manual's DISCUSSION section", () => {
    const links = Array.from(
      { length: 300 },
      (_, i) => `<li><a href="/d/${i}">Docs page ${i}</a></li>`,
    );
    const html = `<body><main><nav><ul>${links.join("")}</ul></nav>
      <article><h1>git-commit</h1>${prose("Manual", 25)}
      <h2>DISCUSSION</h2>${prose("Discussion", 2)}</article></main></body>`;
    const { content } = convertHtml(html);
    expect(content).not.toContain("Docs page");
    expect(content).toContain("## DISCUSSION\n\nDiscussion is a sentence");
  });

  it("keeps the page's own content that a style hides until a script shows it", () => {
    const html = `<body><div style="display:none"><p>Hidden menu text.</p></div>
      <div style="display: none"><article><h1>Almond thins</h1>${prose("Product", 3)}</article></div>
      </body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("# Almond thins");
    expect(content).not.toContain("Hidden menu");
  });

  it("drops what a class of the page's own style sheet hides, unless a rule shows it or it is prose", () => {
    const cards = ["Crusher", "Hesh", "Icon"].map(
      (n) => `<li><a href="/p/${n}">${n} headphones</a> $99</li>`,
    );
    const html = `<head><style>.compare{display:none}.drawer{display:none}.drawer.open{display:block}
      .details{display:none}</style></head><body><main><h1>Headphones</h1>${prose("Intro", 4)}
      <div class="compare"><h5>Compare products</h5><ul>${cards.join("")}</ul></div>
      <div class="drawer"><p>Drawer a script opens.</p></div>
      <div class="details">${prose("Description", 2)}</div></main></body>`;
    const { content } = convertHtml(html);
    expect(content).not.toContain("Compare products");
    expect(content).not.toContain("Hesh headphones");
    expect(content).toContain("Drawer a script opens.");
    expect(content).toContain("Description is a sentence");
  });

  it("reads a page that a style hides whole, when next to nothing else is visible", () => {
    const cards = Array.from(
      { length: 6 },
      (_, i) => `<li><a href="/i/${i}">Vintage poster ${i}</a>
      <p>An original print from the sixties, in good condition, framed and ready to hang.</p></li>`,
    );
    const hiddenPage = `<body><p>Skip to content</p><div style="display:none"><h2>Collectibles</h2>
      <ul>${cards.join("")}</ul></div><div style="display:none"><p>Hidden menu text.</p></div></body>`;
    const { content } = convertHtml(hiddenPage);
    expect(content).toContain("Vintage poster 5");
    // With the page visible beside them, hidden parts stay out.
    const visible = hiddenPage.replace("<p>Skip to content</p>", prose("Visible", 6));
    expect(convertHtml(visible).content).not.toContain("Vintage poster");
  });

  it("reads a <main> that a style hides whole, and not the smaller notices hidden beside it", () => {
    const cards = Array.from(
      { length: 6 },
      (_, i) => `<li><a href="/p/${i}">Dark roast ${i}</a><p>$19.99</p></li>`,
    );
    const grid = `<h2>Coffee</h2><ul>${cards.join("")}</ul>${prose("Roast", 2)}`;
    const html = `<body><header><nav>${prose("Menu", 3)}</nav></header>
      <main><div style="display:none"><p>Access denied: enable customer accounts.</p></div>
      <div style="display:none">${grid}</div></main>
      <footer>${prose("Footer", 4)}</footer></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Dark roast 5");
    expect(content).not.toContain("Access denied");
    // Beside a main that shows its own text, what it hides stays out.
    const shown = html.replace("<main>", `<main>${prose("Shown", 4)}`);
    expect(convertHtml(shown).content).not.toContain("Dark roast");
  });

  it("reads every block a style hides in a <main> when the page shows nothing else", () => {
    const html = `<body><main><div style="display:none"><h2>First</h2>${prose("Alpha", 6)}</div>
      <div style="display:none"><h2>Second</h2>${prose("Beta", 4)}</div></main></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Alpha is a sentence");
    expect(content).toContain("Beta is a sentence");
  });

  it("leaves hidden what a <main> hides beside its own text, or in parts none of which is most", () => {
    const page = (main: string) =>
      `<body><header><nav>${prose("Menu", 4)}</nav></header><main>${main}</main>
      <footer>${prose("Footer", 4)}</footer></body>`;
    const hidden = (text: string) => `<div style="display:none">${text}</div>`;
    // No hidden part holds half the main's text.
    const thirds = page(["One", "Two", "Three"].map((w) => hidden(prose(w, 5))).join(""));
    expect(convertHtml(thirds).content).not.toMatch(/One is|Two is|Three is/);
    // The main shows more than next to nothing: over 500 characters…
    const shown = page(`${prose("Shown", 7)}${hidden(prose("Grid", 60))}`);
    expect(convertHtml(shown).content).not.toContain("Grid is");
    // …or a fifth as much as it hides.
    const share = page(`${prose("Shown", 3)}${hidden(prose("Grid", 10))}`);
    expect(convertHtml(share).content).not.toContain("Grid is");
  });

  it("keeps the section headings of a page whose sections are the body's children", () => {
    const html = `<body><h1>Fold and cut</h1><p>Links: <a href="/">Home</a> <a href="/p">Papers</a></p>
      <h2>History</h2>${prose("History", 4)}${prose("Magic", 3)}
      <div class="figure"><img src="a.png" alt=""><p>Figure 1</p></div>
      <h2>Theorem</h2>${prose("Theorem", 4)}<h3>Disk packing</h3>${prose("Disks", 3)}
      <ul><li>${prose("Item")}</li></ul>
      <h3><a href="/other">How other people fold paper</a></h3>${prose("Teaser", 3)}</body>`;
    const { content } = convertHtml(html);
    expect(content).toMatch(/^## History\n\nHistory is/);
    expect(content).toContain("\n\n## Theorem\n\nTheorem is");
    expect(content).toContain("\n\n### Disk packing\n\nDisks is");
    expect(content).not.toContain("How other people fold paper");
    expect(content).not.toContain("Papers");
  });

  it("keeps a side note of prose inside the content, not a sidebar", () => {
    const filters = `<aside><h3>Filter</h3><ul><li><label>Over-ear headphones in stock</label></li>
      <li><label>On-ear headphones for kids and adults</label></li></ul>
      <div>${"Sidebar is filler text, with commas, beside the list. ".repeat(12)}</div></aside>`;
    const html = `<body><main><h1>Attested builds</h1><div class="post">${prose("Intro", 4)}
      <aside><h3>A note on other devices</h3>${prose("Devices", 6)}</aside>${prose("Closing", 4)}
      </div><aside><h3>About us</h3>${prose("About", 6)}</aside>${filters}</main></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("### A note on other devices\n\nDevices is");
    // Asides beside the post, not amid its paragraphs, are the page's sidebar.
    expect(content).not.toContain("About is");
    expect(content).not.toContain("Over-ear");
    expect(content).not.toContain("Sidebar is");
  });

  it("keeps every tab panel, chosen or not", () => {
    const html = `<body><main><h1>Install</h1>${prose("Intro", 3)}
      <div role="tabpanel"><p>brew install tool</p></div>
      <div role="tabpanel" hidden><p>apt-get install tool</p></div>
      <div class="tab-pane" style="display:none"><p>winget install tool</p></div>
      <section role="tabpanel" aria-hidden="true" hidden><p>pkg install tool</p></section></main></body>`;
    const { content } = convertHtml(html);
    for (const kept of ["brew", "apt-get", "winget", "pkg"]) expect(content).toContain(kept);
  });

  it("keeps closed accordion panels, and still drops other parts a style hides", () => {
    const html = `<body><main><h1>Going solar</h1>${prose("Intro", 3)}
      <div class="es-accordion"><h3><button>Step 1</button></h3>
        <div role="region" style="display:none"><p>Get an engineering site visit first.</p></div>
        <h3><button>Step 2</button></h3>
        <div class="accordion-body" style="display: none"><p>File the permits with the city.</p></div>
        <h3><button>Step 3</button></h3><div class="panel" hidden><p>Schedule the inspection.</p></div>
        <h3><button>Step 4</button></h3><div class="panel" aria-hidden="true"><p>Switch the system on.</p></div></div>
      <h3 id="s5"><button>Step 5</button></h3>
      <div role="region" aria-labelledby="s5" hidden><p>Read the meter each month.</p></div>
      <div role="region" aria-live="polite" hidden><p>Toast you never saw.</p></div>
      <div style="display:none"><p>Popup you never opened.</p></div></main></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Read the meter each month");
    expect(content).not.toContain("Toast you never saw");
    expect(content).toContain("engineering site visit");
    expect(content).toContain("File the permits");
    expect(content).toContain("Schedule the inspection");
    expect(content).toContain("Switch the system on");
    expect(content).not.toContain("Popup you never opened");
  });

  it("keeps panels that a control's aria-controls opens, but not the site's menu, drawer or dialog", () => {
    const html = `<body><main><h1>Retirement</h1>${prose("Intro", 3)}
      <h3><a class="qa-head" aria-controls="a1" aria-expanded="false">How much do I need?</a></h3>
      <div class="qa-body" id="a1" aria-hidden="true"><p>There is no single target for everyone.</p></div>
      <h3><button aria-controls="a2" aria-expanded="false">When can I start?</button></h3>
      <div id="a2" style="display:none"><p>Start saving soon, even if small.</p></div>
      <button aria-controls="site-menu" aria-expanded="false">Menu</button>
      <div id="site-menu" aria-hidden="true"><p>Accounts and plans overview.</p></div>
      <button aria-controls="cart-drawer" aria-expanded="false">Cart</button>
      <div id="cart-drawer" aria-hidden="true"><p>Your cart is empty for now.</p></div>
      <button aria-controls="x9" aria-expanded="false">Help</button>
      <div id="x9" role="dialog" aria-hidden="true"><p>Chat with our team any time.</p></div>
      <div id="a3" aria-hidden="true"><p>Decoration nobody opens.</p></div></main></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("There is no single target");
    expect(content).toContain("Start saving soon");
    for (const gone of ["Accounts and plans", "Your cart is empty", "Chat with our team"]) {
      expect(content).not.toContain(gone);
    }
    expect(content).not.toContain("Decoration nobody opens");
  });

  it("keeps the body of a closed <details>, which pages hide from screen readers until opened", () => {
    const html = `<body><main><h1>CDN</h1>${prose("Intro", 3)}
      <details aria-expanded="false"><summary><h4>What is a CDN?</h4></summary>
      <div class="content" aria-hidden="true"><p>A network of servers close to readers.</p></div>
      <div hidden><p>A draft answer never shown.</p></div></details>
      <div aria-hidden="true"><p>Decoration nobody opens.</p></div></main></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("What is a CDN?");
    expect(content).toContain("A network of servers close to readers.");
    expect(content).not.toContain("A draft answer never shown");
    expect(content).not.toContain("Decoration nobody opens");
  });

  it("drops short live-region announcements, and keeps live regions that hold content", () => {
    const chat = Array.from(
      { length: 4 },
      (_, i) => `<p>Message ${i}: the ranger says the trail reopens at dawn.</p>`,
    );
    const html = `<body><main><h1>Tents</h1><div role="status">loaded 154 results</div>
      ${prose("Intro", 3)}<div role="status">Item added to your cart</div>
      <div role="log">Showing 1–16 of 29 results</div><div role="log">${chat.join("")}</div>
      <div class="alert alert-warning" role="alert">Deprecated since v3.</div>
      <div role="status">${"<span></span>".repeat(200)}Pitch sites open at noon.</div></main></body>`;
    const { content } = convertHtml(html);
    for (const gone of ["loaded 154", "Item added", "Showing 1–16"])
      expect(content).not.toContain(gone);
    expect(content).toContain("Message 3: the ranger says");
    // A visible callout, and a region too large to read as a short message, stay.
    expect(content).toContain("Deprecated since v3.");
    expect(content).toContain("Pitch sites open at noon.");
  });

  it("drops a form's status messages, which show only once the form is sent", () => {
    const html = `<body><main><h1>Catering 101</h1>${prose("Intro", 3)}
      <div class="w-form"><form><input name="email"><input type="submit" value="Get it"></form>
        <div class="w-form-done"><div>Thank you! Your submission has been received!</div></div>
        <div class="w-form-fail"><div>Oops! Something went wrong while submitting the form.</div></div></div>
      <div class="article-feedback"><form><input type="radio" name="helpful"></form>
        <div class="article-feedback__success-message">Thanks for your feedback!</div></div>
      <p>Error messages in a form should say how to fix the input.</p>
      <div class="error-message">TypeError: cart is undefined</div></main></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("TypeError: cart is undefined");
    expect(content).toContain("Intro");
    expect(content).toContain("Error messages in a form");
    expect(content).not.toContain("submission has been received");
    expect(content).not.toContain("Something went wrong");
    expect(content).not.toContain("Thanks for your feedback");
  });

  it("reads an Elementor page, whose every block is a 'widget'", () => {
    const widget = (inner: string) =>
      `<div class="elementor-element elementor-widget elementor-widget-text-editor"><div class="elementor-widget-container">${inner}</div></div>`;
    const html = `<body><div class="elementor elementor-35">${widget("<h1>Trails</h1>")}
      ${widget("<p>Anthills MTB. Difficulty: intermediate.</p>")}
      ${widget("<p>Burroughs Park. Difficulty: beginner.</p>")}</div>
      <div class="widget widget_recent_entries"><p>Recent posts</p></div></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Anthills MTB");
    expect(content).toContain("Burroughs Park");
    expect(content).not.toContain("Recent posts");
  });

  it("drops a forum post's author panel counters, post controls and ad labels, keeping the posts", () => {
    const post = (
      n: number,
    ) => `<div class="post"><div class="userinfo"><a href="/u/${n}">user${n}</a>
      <div>Join Date: Aug 2008</div><div>Posts: 1,077</div><div>Senior Member</div>
      <div>Threads: 23<br>Joined: Feb 2019<br>Reputation: <b>7</b></div></div>
      <div class="date">Mar 4, 2025</div><a class="permalink" href="/p/${n}">#${n}</a>
      ${prose(`Post${n}`, 2)}<p>Edited the config by hand, works ${["now", "at last", "fine"][n - 1]}</p><p>Start date next ${["Monday", "Tuesday", "Friday"][n - 1]}?</p><div>Last edited: Jan 13, 2024</div><div>Joined: 4. Jul 2012, 16:09</div>
      <div>Posted August 26</div><div>Edited August 26 by Joe Root</div><div>posted 2 years ago</div>
      <div>Thread starter paulb203</div><div>Start date Oct 8, 2024</div>
      <div><a href="/q/${n}">Reply With Quote</a></div>
      <div><a href="/s/${n}">Share on other sites</a></div></div>`;
    const html = `<body><main><p>Advertisement (gone after registration)</p>${[1, 2, 3].map(post).join("")}</main></body>`;
    const { content } = convertHtml(html, { url: "https://forum.example.com/threads/chains.42/" });
    for (const n of [1, 2, 3]) expect(content).toContain(`Post${n} is a sentence`);
    for (const gone of [
      "Join Date",
      "1,077",
      "Senior Member",
      "Reply With Quote",
      "Threads",
      "Advert",
      "other sites",
      "Last edited",
      "Jul 2012",
      "August 26",
      "years ago",
      "paulb203",
    ]) {
      expect(content).not.toContain(gone);
    }
    // Each post's own words stay, however much they read like a post's furniture.
    expect(content.match(/Edited the config by hand/g)).toHaveLength(3);
    expect(content.match(/Start date next \w+day\?/g)).toHaveLength(3);
    expect(content).not.toMatch(/#\d/);
  });

  it("reads a short block wrapped many times over as one block: furniture goes, a phrase in a sentence stays", () => {
    const wrapped = (inner: string) =>
      `${"<div><section>".repeat(30)}${inner}${"</section></div>".repeat(30)}`;
    const html = `<body><main>${prose("Article", 3)}${wrapped("<span>Advertisement</span>")}
      ${wrapped("<p>Kept <span>advertisement</span> words</p>")}${wrapped("<em>advertisement</em>")}
      <p>Read on in the guide: <b><div>Advertisement</div></b> and after it.</p></main></body>`;
    const { content } = convertHtml(html, { url: "https://news.example.com/story" });
    expect(content).toContain("Article is a sentence");
    expect(content).toContain("Kept advertisement words");
    // Inline markup the sentence keeps is looked into: the block of furniture in it still goes.
    expect(content).toContain("Read on in the guide: and after it.");
    expect(content).not.toMatch(/^\W*Advertisement/im);
  });

  it("keeps a table cell that reads as furniture, so no column moves; its content may go", () => {
    const html = `<body><main>${prose("Article", 3)}<table>
      <tr><th>Shortcut</th><th>Action</th><th>Learn more</th></tr>
      <tr><td>Ctrl+C</td><td>Copy</td><td><a href="/docs/copy">Docs</a></td></tr>
      <tr><td>Ctrl+P</td><td>Print</td><td><div>Learn more</div></td></tr></table></main></body>`;
    const { content } = convertHtml(html, { url: "https://docs.example.com/keys" });
    expect(content).toContain("| Shortcut | Action | Learn more |");
    expect(content).toContain("| Ctrl+C | Copy | [Docs](https://docs.example.com/docs/copy) |");
    // The block inside the cell still goes, and the cell stays, empty.
    expect(content).toContain("| Ctrl+P | Print | |");
  });

  it("drops a section laid out again for another screen, not a repeated header row or sample", () => {
    const stats = `<div class="stats"><div><span>3.6x</span><span>faster time to market</span></div>
      <div><span>50%</span><span>shorter planning process</span></div>
      <div><span>100M+</span><span>people collaborating every day</span></div></div>`;
    const table = (
      n: number,
    ) => `<table><tr><th>Attribute</th><th>Data type</th><th>Supported values and their meaning</th><th>Example</th></tr>
      <tr><td>field${n}</td><td>string</td><td>any text of up to 80 characters</td><td>value ${n}</td></tr></table>`;
    const sample = `<pre><code>${"const answer = compute(input, { retries: 3, timeout: 1000 });\n".repeat(2)}</code></pre>`;
    const html = `<body><main>${prose("Lead", 3)}<div class="desktop">${stats}</div>
      <div class="mobile">${stats}</div>${prose("Middle", 3)}${table(1)}${table(2)}
      <p>Before the change:</p>${sample}<p>After the change, the call is the same:</p>${sample}</main></body>`;
    const { content } = convertHtml(html);
    expect(content.match(/faster time to market/g)).toHaveLength(1);
    // Each table keeps its header row, and the sample shown twice on purpose stays twice.
    expect(content.match(/\| Attribute \| Data type/g)).toHaveLength(2);
    expect(content.match(/const answer = compute/g)).toHaveLength(4);
  });

  it("drops a 'Read more from …', 'Most popular posts' or 'Similar threads' section after the post", () => {
    const html = `<body><article><h1>Top agencies</h1>${prose("Agency", 6)}
      <h2>Read more from our in-house experts.</h2><h3><a href="/b/1">Top 35 agencies</a></h3>
      <p>Discover the top agencies delivering growth across paid media.</p></article></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Agency is a sentence");
    expect(content).not.toContain("Top 35 agencies");
    for (const heading of [
      "Most popular posts",
      "Suggested topics",
      "Featured insights",
      "Similar threads",
      "Recommend Posts",
      "Show me more",
      "🔥 Recommended Posts",
      "👍🏻 Related posts",
      "Recent stories by Jane Doe:",
      "Explore related items",
      "Article Sources",
    ]) {
      const other = html.replace("Read more from our in-house experts.", heading);
      expect(convertHtml(other).content).not.toContain("Top 35 agencies");
    }
    // Headings that merely mention an author or a recommendation are a review's own sections.
    const review = `<body><article><h1>Dune, reviewed</h1><h2>The Book</h2>${prose("Book", 3)}
      <h2>The Author</h2>${prose("Herbert", 3)}<h2>Recommended reading</h2>${prose("Further", 3)}
      <h2>Verdict</h2>${prose("Verdict", 3)}</article></body>`;
    const kept = convertHtml(review).content;
    for (const word of ["Herbert is a sentence", "Further is a sentence"])
      expect(kept).toContain(word);
  });

  it("drops the links under a related-stories heading in other languages, not the text after them", () => {
    const links = `<ul><li><a href="/s/1">Die neue Brücke über den Fluss</a></li>
      <li><a href="/s/2">Ein Fest für die ganze Stadt</a></li></ul>`;
    for (const heading of [
      "Mehr zum Thema",
      "Das könnte Sie auch interessieren:",
      "Lesen Sie auch",
      "À lire aussi",
      "Le puede interesar",
      "Leggi anche",
      "Czytaj też",
    ]) {
      const html = `<body><article><h1>Stadtfest</h1>${prose("Erster", 4)}
        <h4>${heading}</h4>${links}${prose("Zweiter", 3)}</article></body>`;
      const { content } = convertHtml(html);
      expect(content, heading).not.toContain("Die neue Brücke");
      expect(content, heading).not.toContain(heading);
      // A box in the middle of the story: the story goes on after its links.
      expect(content, heading).toContain("Zweiter is a sentence");
    }
  });

  it("drops a product page's review sections, however their heading names them", () => {
    const page = (heading: string) => `<body><main><h1>Trail Runner 2</h1>${prose("Shoe", 4)}
      <h2>${heading}</h2><p>Customers like the grip and the fit, and some mention the narrow toe box.</p>
      <h2>Specifications</h2><table><tr><td>Weight</td><td>280 g</td></tr></table></main></body>`;
    for (const heading of [
      "Customers say",
      "What our buyers are saying",
      "Customer reviews for Trail Runner 2",
      "Reviews (12)",
    ]) {
      const { content } = convertHtml(page(heading), {
        url: "https://shop.example.com/product/trail-runner-2",
      });
      expect(content).toContain("Shoe is a sentence");
      expect(content).toContain("280 g");
      expect(content).not.toContain("Customers like the grip");
    }
  });

  it("drops a blog's archives widget after the post, not an archive page's list", () => {
    const calendar = `<h3>Archives</h3><table id="wp-calendar"><caption>December 2025</caption>
      <tr><th>M</th><th>T</th><th>W</th></tr><tr><td>1</td><td>2</td><td>3</td></tr></table>`;
    const post = `<body><article><h1>Carved in Stone</h1>${prose("Review", 14)}<hr>${calendar}</article></body>`;
    const { content } = convertHtml(post);
    expect(content).toContain("Review is a sentence");
    expect(content).not.toContain("December 2025");
    const entry = (n: number) => `<h3><a href="/${n}">Post ${n}</a></h3>${prose(`Entry${n}`, 2)}`;
    const page = `<body><main><h1>Our blog</h1><h2>Archives</h2>${[1, 2, 3].map(entry).join("")}</main></body>`;
    expect(convertHtml(page).content).toContain("Entry3 is a sentence");
  });

  it("says a phrase once when a hidden copy for screen readers follows it", () => {
    const card = `<div class="card"><span>EUR 20.99<span class="clipped">EUR 20.99</span></span>
      <span>Tue, Mar 04</span> <span>Tue, Mar 04</span></div>`;
    const html = `<body><main><h1>Vacuum kit</h1>${prose("Kit", 3)}${card}<p>No, no, no.</p></main></body>`;
    const { content } = convertHtml(html);
    expect(content.split("EUR 20.99").length - 1).toBe(1);
    expect(content.split("Tue, Mar 04").length - 1).toBe(1);
    expect(content).toContain("No, no, no.");
  });

  it("drops a breadcrumb trail marked up as schema.org microdata, whatever its class", () => {
    const html = `<body><main><h1>Best daily news site for a beginner?</h1>
      <div class="topic-category" itemscope itemtype="http://schema.org/BreadcrumbList">
      <span itemprop="itemListElement" itemscope itemtype="http://schema.org/ListItem">
      <a href="/c/open-forum/5" itemprop="item"><span itemprop="name">Open Forum</span></a></span></div>
      ${prose("Question", 3)}</main></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Question is a sentence");
    expect(content).not.toContain("Open Forum");
  });

  it("drops a teaser list longer than the post above it, but not a blog front page's posts", () => {
    const teaser = (n: number) =>
      `<article class="post"><h3><a href="/blog/${n}">Story number ${n}</a></h3><p>March ${n}, 2025</p>
      ${prose(`Teaser${n}`, 3)}<a href="/blog/${n}">Read More</a></article>`;
    const teasers = `<div class="grid">${[1, 2, 3, 4, 5].map(teaser).join("")}</div>`;
    const post = `<body><main><h1>Hurt at a gym?</h1>${prose("Post", 16)}
      <div class="heading"><div class="inner"><h2>Latest News</h2></div></div>${teasers}</main></body>`;
    const { content } = convertHtml(post);
    expect(content).toContain("Post is a sentence");
    expect(content).not.toContain("Teaser1");
    expect(content).not.toContain("Latest News");
    const front = `<body><main><h1>Our blog</h1><h2>Latest News</h2>${teasers}</main></body>`;
    expect(convertHtml(front).content).toContain("Teaser5 is a sentence");
  });

  it("drops a page footer that holds more of the text than the page, but not a named block", () => {
    const blurb = (n: number) =>
      `<div class="col"><h4>Column ${n}</h4><p>Our store ships worldwide, with free returns, gift wrapping and a price promise on every order, column ${n}.</p><a href="/c/${n}">More</a></div>`;
    const footer = `<footer>${Array.from({ length: 6 }, (_, i) => blurb(i + 1)).join("")}</footer>`;
    const page = `<body><div class="page"><h1>Bike helmets</h1>${prose("Helmets", 4)}</div>${footer}</body>`;
    const { content } = convertHtml(page);
    expect(content).toContain("Helmets is a sentence");
    expect(content).not.toContain("Our store ships worldwide");
    // Named like a footer but not one by its tag: as much text is weak evidence, and it stays.
    const named = page.replace("<footer>", '<div class="footer">').replace("</footer>", "</div>");
    expect(convertHtml(named).content).toContain("Our store ships worldwide");
  });

  it("drops a reply's quote of a post the thread shows, keeping quotes of posts it does not", () => {
    const said = (who: string, text: string) =>
      `<blockquote class="bbCodeBlock bbCodeBlock--quote"><div class="bbCodeBlock-title">${who} said:</div>
      <div class="bbCodeBlock-content"><div class="bbCodeBlock-expandContent">${text}</div>
      <div class="bbCodeBlock-expandLink">Click to expand...</div></div></blockquote>`;
    const post = (who: string, body: string) =>
      `<article class="message"><div class="message-name">${who}</div><div class="bbWrapper">${body}</div></article>`;
    const ann = "I ended up installing Linux Mint on an old laptop and it went quite smoothly.";
    const lost =
      "The old thread said the driver has to be built from source on every kernel update.";
    const html = `<body><main><h1>Linux on old laptops</h1>
      ${post("Ann", `${ann}<br>It needs more time to get into, though, as any new system does.`)}
      ${post("Bob", `${said("Ann", ann)}Mint works well on my desktop too, and Debian ran our whole back end at work.`)}
      ${post("Cy", `${said("Dee", lost)}That was true years ago, but the distribution packages the driver now.`)}
      ${post("Eve", `${said("Dee", lost)}Packaged or not, it still breaks for me after each kernel update.`)}
      </main></body>`;
    const { content } = convertHtml(html, {
      url: "https://forum.example.com/threads/linux-on-old-laptops.42/",
    });
    // Ann's post shows once: Bob's quote of it goes (with its "Ann said:"), his reply stays.
    expect(content.split("Linux Mint on an old laptop").length - 1).toBe(1);
    expect(content).toContain("Mint works well on my desktop");
    // Dee's post is not on this page: one of the two quotes of it stays.
    expect(content.split("built from source").length - 1).toBe(1);
    expect(content).toContain("the distribution packages the driver now");
    expect(content).toContain("it still breaks for me");
  });

  it("keeps a thread's comments wrapped in forms (old Reddit), not its reply and search forms", () => {
    const comment = (who: string, text: string) =>
      `<div class="comment"><p class="tagline"><a href="/u/${who}">${who}</a> 42 points</p>
      <form class="usertext"><input type="hidden" name="thing_id"><div class="md"><p>${text}</p></div></form>
      <ul class="buttons"><li>embed</li><li>save</li><li>parent</li></ul></div>`;
    const html = `<body><div class="content"><h1>Hair follicles grown in the lab</h1>${prose("Post", 3)}
      ${comment("ragnar", "Might this also be a cure for tinnitus, one day?")}
      ${comment("baron", "I dream of a day where there is silence and not ringing.")}
      ${comment("rich", "Thankfully, I do not notice it anymore unless someone brings it up.")}
      <form class="reply"><label>Name</label><input name="n"><p>By posting you agree to the terms of the site, as always.</p></form></div></body>`;
    const { content } = convertHtml(html, {
      url: "https://old.reddit.com/r/science/comments/1rku5x9/x/",
    });
    expect(content).toContain("a cure for tinnitus");
    expect(content).toContain("silence and not ringing");
    expect(content).toContain("do not notice it anymore");
    expect(content).not.toContain("By posting you agree");
    expect(content).not.toMatch(/^(?:embed|save|parent)$/m);
  });

  it("does not take a short notice beside a grid of product cards for the page", () => {
    const card = (n: number) =>
      `<li class="product"><a href="/p/${n}"><h2>Cup number ${n}</h2><span>$${n}.00</span></a></li>`;
    const html = `<body><div class="notice"><p>Prices are shown in US dollars.</p></div>
      <ul class="products">${Array.from({ length: 30 }, (_, i) => card(i + 1)).join("")}</ul></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Cup number 1");
    expect(content).toContain("Cup number 30");
  });

  it("removes chrome inside a page-wide <form> (ASP.NET pages)", () => {
    const html = `<body><form id="MainForm"><header><nav><a href="/">Home</a></nav></header>
      <main><h1>Projectors</h1>${prose("Projector", 6)}</main>
      <footer><p>Footer links and copyright.</p></footer></form></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Projector is a sentence");
    expect(content).not.toContain("Footer links");
  });
});
