#!/usr/bin/env python3
"""Drives `vidrec serve`'s page in headless Chromium as a user would, and prints what it
saw as one JSON object for ServeBrowserTests to check against the files.

Usage: serve_page.py URL PROFILE
  URL      the address `vidrec serve` printed (http://127.0.0.1:PORT/?token=T)
  PROFILE  an empty folder for Chromium's profile

Every wait is for something on the page (a picture, a list entry, a video's `seeked`
event), bounded only so that a broken page fails instead of hanging.
"""
import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

LIMIT = 120  # seconds: only a broken page waits this long

# The test camera's 16-bit frame number, read off the bottom strip of an <img> or a
# <video> drawn into a canvas (the same rule as Probe.frameNumber).
FRAME_NUMBER = """
const element = arguments[0];
const w = element.naturalWidth || element.videoWidth, h = element.naturalHeight || element.videoHeight;
if (!w || !h) return null;
const canvas = document.createElement("canvas");
canvas.width = w; canvas.height = h;
const context = canvas.getContext("2d");
context.drawImage(element, 0, 0, w, h);
const data = context.getImageData(0, 0, w, h).data;
const blockHeight = Math.max(8, Math.floor(h / 16)), blockWidth = Math.floor(w / 16);
const row = h - Math.floor(blockHeight / 2);
let number = 0;
for (let bit = 0; bit < 16; bit++) {
  const i = (row * w + bit * blockWidth + Math.floor(blockWidth / 2)) * 4;
  const grey = 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2];
  number = (number << 1) | (grey > 128 ? 1 : 0);
}
return [number, w, h];
"""


def until(driver, condition):
    # An element the page has just drawn again is looked up again.
    return WebDriverWait(driver, LIMIT, poll_frequency=0.05,
                         ignored_exceptions=[StaleElementReferenceException]).until(lambda d: condition(d))


def pending_item(driver, text):
    for item in driver.find_elements(By.CSS_SELECTOR, "#pending li"):
        if text in item.text:
            return item
    return None


def item_id(driver, text):
    item = pending_item(driver, text)
    return item.get_attribute("data-id") if item is not None else None


def press(driver, item_text, label, name=None):
    """Presses the button `label` of the pending item whose text has `item_text`, after
    typing `name` into its name field."""
    def attempt(d):
        item = pending_item(d, item_text)
        if item is None:
            return False
        if name is not None:
            field = item.find_element(By.CSS_SELECTOR, "input.name")
            field.clear()
            field.send_keys(name)
        [b for b in item.find_elements(By.TAG_NAME, "button") if b.text == label][0].click()
        return True
    until(driver, attempt)


def main():
    url, profile = sys.argv[1], sys.argv[2]
    base = url.split("/?")[0]
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=900,1100", "--user-data-dir=" + profile, "--autoplay-policy=no-user-gesture-required"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    seen = {}
    try:
        # Without the token: the page says where it is.
        driver.get(base + "/")
        seen["withoutToken"] = driver.find_element(By.TAG_NAME, "body").text

        # The printed address: the cookie is set, and the viewfinder plays.
        driver.get(url)
        seen["address"] = driver.current_url
        view = driver.find_element(By.ID, "view")
        until(driver, lambda d: d.execute_script(FRAME_NUMBER, view))
        numbers = []
        while len(numbers) < 3:
            number, width, height = until(driver, lambda d: d.execute_script(FRAME_NUMBER, view))
            if not numbers or number != numbers[-1]:
                numbers.append(number)
                seen["viewfinderSize"] = [width, height]
        seen["viewfinder"] = numbers
        seen["cameraLine"] = until(driver, lambda d: d.find_element(By.ID, "camera").text)

        # Record 2 s at the low preset.
        until(driver, lambda d: "low" in [o.get_attribute("value") for o in d.find_elements(By.CSS_SELECTOR, "#quality option")])
        Select(driver.find_element(By.ID, "quality")).select_by_value("low")
        driver.find_element(By.ID, "max").send_keys("2")
        driver.find_element(By.ID, "start").click()
        seen["recording"] = until(driver, lambda d: item_id(d, "video · finished"))

        # A photo.
        driver.find_element(By.ID, "snap").click()
        seen["photo"] = until(driver, lambda d: item_id(d, "photo"))

        # Save the movie under a name: it shows in the album.
        press(driver, seen["recording"], "Save", name="door")
        link = until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#album a[data-name="door.mp4"]'))[0]
        seen["albumEntry"] = link.text
        until(driver, lambda d: d.execute_script("return arguments[0].querySelector('img').naturalWidth > 0", link))
        seen["posterWidth"] = driver.execute_script("return arguments[0].querySelector('img').naturalWidth", link)

        # Play it in the page and seek to its 16th frame (1 s and half a frame at 15 fps).
        link.click()
        video = until(driver, lambda d: d.find_elements(By.ID, "movie"))[0]
        until(driver, lambda d: d.execute_script("return arguments[0].readyState >= 1", video))
        seen["duration"] = driver.execute_script("return arguments[0].duration", video)
        seen["seeked"] = driver.execute_async_script("""
            const [video, done] = arguments;
            video.addEventListener("seeked", () => done(video.currentTime), { once: true });
            video.currentTime = 1 + 1 / 30;
        """, video)
        until(driver, lambda d: d.execute_script("return arguments[0].readyState >= 2", video))
        seen["frameAfterSeek"] = driver.execute_script(FRAME_NUMBER, video)

        # Discard the photo: it leaves the list.
        press(driver, seen["photo"], "Discard")
        until(driver, lambda d: pending_item(d, seen["photo"]) is None)
        seen["discarded"] = True
        seen["message"] = driver.find_element(By.ID, "message").text
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(profile + "/page.png")
        seen["screenshot"] = profile + "/page.png"

        # On a phone (a 390-px-wide touch screen, as Chromium's device emulation makes
        # one): the page fits without sideways scrolling, the viewfinder fills the
        # width and plays, the buttons are within the screen, and a tap takes a photo.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        driver.get(base + "/")
        view = driver.find_element(By.ID, "view")
        until(driver, lambda d: d.execute_script(FRAME_NUMBER, view))
        seen["phone"] = driver.execute_script("""
            const box = (id) => { const r = document.getElementById(id).getBoundingClientRect(); return [r.left, r.right, r.height]; };
            return { innerWidth: window.innerWidth, scrollWidth: document.documentElement.scrollWidth,
                     view: box("view"), start: box("start"), stop: box("stop"), snap: box("snap"), quality: box("quality") };
        """)
        driver.save_screenshot(profile + "/phone.png")
        before = set(i.get_attribute("data-id") for i in driver.find_elements(By.CSS_SELECTOR, "#pending li"))
        driver.find_element(By.ID, "snap").click()
        seen["phonePhoto"] = until(driver, lambda d: next((i.get_attribute("data-id") for i in d.find_elements(By.CSS_SELECTOR, "#pending li")
                                                           if "photo" in i.text and i.get_attribute("data-id") not in before), None))
    except Exception as error:  # what was seen so far, and why it stopped
        seen["error"] = f"{type(error).__name__}: {error}"
        try:
            seen["page"] = driver.find_element(By.TAG_NAME, "body").text[:2000]
        except Exception:
            pass
    finally:
        driver.quit()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
